package io.kyma.operator.manager.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The hostile-tenant model without a cluster: its sequences are fixed by the seed and print as scripts. */
class TenantModelTest {
    @Test
    void aSeedNamesOneSequenceForGood() {
        for (long seed = 0; seed < 10; seed++) {
            assertThat(HostileTenantIT.actions().sequence(seed, 100))
                    .as("seed %d", seed)
                    .isEqualTo(HostileTenantIT.actions().sequence(seed, 100));
        }
    }

    @Test
    void everyActionPrintsAsAKubectlLineOrAComment() {
        for (long seed = 0; seed < 10; seed++) {
            for (TenantAction action : HostileTenantIT.actions().sequence(seed, 200)) {
                assertThat(action.script()).matches("(kubectl |# ).*").doesNotContain("\n");
            }
        }
    }

    @Test
    void aLongRunDrawsEveryKindOfAction() {
        Set<Class<?>> kinds = HostileTenantIT.actions().sequence(1, 2000).stream()
                .map(Object::getClass)
                .collect(Collectors.toSet());
        assertThat(kinds).containsAll(List.of(TenantAction.class.getPermittedSubclasses()));
    }

    @Test
    void theShortRunOfMakeTestIsThisSequence() {
        List<TenantAction> actions =
                HostileTenantIT.actions().sequence(HostileTenantIT.SHORT.seed(), HostileTenantIT.SHORT.steps());
        actions.forEach(a -> System.out.println(a.script()));
        assertThat(actions).hasSize(HostileTenantIT.SHORT.steps());
    }

    @Test
    void theShortRunMakesAControlKymaWhileAWebhookHangsAndLetsItAllowAgain() {
        List<TenantAction> actions =
                HostileTenantIT.actions().sequence(HostileTenantIT.SHORT.seed(), HostileTenantIT.SHORT.steps());
        Map<String, FuzzWebhook.Mode> modes = new HashMap<>();
        boolean controlWhileHanging = false;
        for (TenantAction action : actions) {
            if (action instanceof TenantAction.Webhook webhook) {
                modes.put(webhook.role(), webhook.mode());
            } else if (action instanceof TenantAction.ControlKyma) {
                controlWhileHanging |= modes.containsValue(FuzzWebhook.Mode.HANG);
            }
        }
        assertThat(controlWhileHanging)
                .as("a control Kyma made while a webhook hangs")
                .isTrue();
        assertThat(modes).as("webhook modes at the end").doesNotContainValue(FuzzWebhook.Mode.HANG);
    }

    @Test
    void theShortRunOpensWindowsOfErrorsAndOfBrokenWatchesThatEndBeforeItsEnd() {
        List<TenantAction> actions =
                HostileTenantIT.actions().sequence(HostileTenantIT.SHORT.seed(), HostileTenantIT.SHORT.steps());
        Set<TenantAction.ApiFault.Kind> kinds = new java.util.HashSet<>();
        for (int i = 0; i < actions.size() - 1; i++) {
            if (actions.get(i) instanceof TenantAction.ApiFault fault
                    && !(actions.get(i + 1) instanceof TenantAction.ApiFault)) {
                kinds.add(fault.kind());
            }
        }
        assertThat(kinds)
                .as("fault windows with a tenant's action inside")
                .anyMatch(TenantAction.ApiFault.Kind::shared)
                .anyMatch(k ->
                        k == TenantAction.ApiFault.Kind.WATCHES_END || k == TenantAction.ApiFault.Kind.EVENTS_LOST);
    }
}
