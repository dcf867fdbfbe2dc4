package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/**
 * The visibility principle as an oracle over generated holds: whatever finalizers hold a component the Kyma wants gone
 * (the Kyma is being deleted, its module was removed) or wants back (being deleted under a planned name), the Kyma's
 * status names the component and the first finalizers, says how many more there are, never shows the informer
 * cache's placeholder, and the Kyma is not Ready while the hold lasts.
 */
class KymaVisibilityTest {
    /** Where the held components stand, as the Kyma meets them. */
    enum Path {
        KYMA_DELETED,
        MODULE_REMOVED,
        PLANNED_BEING_DELETED
    }

    private static final List<String> MODULES = List.of("istio", "ory", "kiali", "eventing", "serverless");
    /** Among them the name that looks like the operator's own: no controller of the operator adds it. */
    private static final List<String> NAMES = List.of(
            "helmcomponents.inventory.kyma-project.io/finalizer",
            "example.com/hold",
            "kubernetes",
            "foregroundDeletion",
            "backup.example.io/protect");

    @Test
    void everyHoldOnAComponentTheKymaWantsGoneIsNamedInItsStatusFromTheCache() {
        int checked = 0;
        for (long seed = 1; seed <= 240; seed++) {
            Random random = new Random(seed);
            Path path = Path.values()[(int) (seed % Path.values().length)];
            int heldCount = 1 + random.nextInt(MODULES.size());
            List<List<String>> finalizers = new ArrayList<>();
            for (int i = 0; i < heldCount; i++) {
                int length = 1 + random.nextInt(2 * LeanCache.NAMED_FINALIZERS + 8);
                List<String> list = new ArrayList<>();
                for (int f = 0; f < length; f++) {
                    list.add(random.nextInt(3) == 0 ? NAMES.get(random.nextInt(NAMES.size())) : "t" + f + ".example/f");
                }
                finalizers.add(list);
            }
            check(path, finalizers, random, "seed " + seed + " " + path + " " + finalizers);
            checked++;
        }
        assertThat(checked).isEqualTo(240);
    }

    private void check(Path path, List<List<String>> finalizers, Random random, String description) {
        FakeComponentServer api = new FakeComponentServer();
        SharedStore<HelmComponent> store = new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
        store.syncedWhen(() -> true);
        KymaReconciler reconciler = new KymaReconciler(
                new MutableClock(Instant.parse("2026-01-02T00:00:00Z")), Duration.ofSeconds(5), store, -1, api);
        List<String> heldModules = MODULES.subList(0, finalizers.size());
        // the Kyma plans its modules, except those removed on that path; one module it keeps is never held
        List<String> planned = new ArrayList<>(path == Path.MODULE_REMOVED ? List.of() : heldModules);
        planned.add("keda");
        Kyma kyma = TestKymas.kyma("k", "uid-k", planned.toArray(String[]::new));
        if (path == Path.KYMA_DELETED) {
            kyma.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
        }
        List<HelmComponent> cached = new ArrayList<>();
        for (int i = 0; i < finalizers.size(); i++) {
            HelmComponent component = ChildComponents.desired(kyma, new Module(heldModules.get(i), null));
            component.getMetadata().setFinalizers(finalizers.get(i));
            if (path != Path.MODULE_REMOVED || random.nextBoolean()) {
                // a removed module's component is deleted by this reconcile, or was by an earlier one
                component.getMetadata().setDeletionTimestamp("2026-01-01T12:00:00Z");
            }
            component.getMetadata().setGeneration(1L);
            component.setStatus(new HelmComponentStatus());
            component.getStatus().setState(ComponentState.SUCCESS); // installed once, being taken away now
            component.getStatus().setObservedGeneration(1L);
            HelmComponent held = api.put(component);
            store.put(store.getKey(held), held);
            cached.add(store.get(store.getKey(held))); // the lossy copy is what the reconcile reads
        }
        FakeContext<Kyma> context = new FakeContext<>(kyma, cached);
        if (path == Path.KYMA_DELETED) {
            reconciler.cleanup(kyma, context);
        } else {
            reconciler.reconcile(kyma, context);
        }
        KymaStatus status = api.lastStatus;
        Condition ready = status.getConditions().stream()
                .filter(c -> c.getType().equals("Ready"))
                .findFirst()
                .orElseThrow();
        assertThat(status.getPhase()).as(description).isNotEqualTo(KymaPhase.READY);
        assertThat(ready.getStatus()).as(description).isEqualTo("False");
        assertThat(ready.getReason()).as(description).isEqualTo(KymaStatusSummary.REASON_FINALIZERS);
        String message = ready.getMessage();
        assertThat(message).as(description).doesNotContain("not.kept");
        assertThat(message)
                .as("a hold is waited out, not retried: %s", description)
                .doesNotContain("backoff");
        int named = 0;
        for (int i = 0; i < finalizers.size(); i++) {
            String name = "k-" + heldModules.get(i);
            if (!message.contains("HelmComponent ns/" + name + ":")) {
                continue; // one of those counted as more
            }
            named++;
            List<String> all = finalizers.get(i);
            List<String> shown = all.subList(0, Math.min(all.size(), LeanCache.NAMED_FINALIZERS));
            String expected = "HelmComponent ns/" + name + ": finalizer" + (all.size() == 1 ? " " : "s ")
                    + String.join(", ", shown)
                    + (all.size() > shown.size() ? " and " + (all.size() - shown.size()) + " more" : "");
            assertThat(message).as(description).contains(expected);
        }
        int n = finalizers.size();
        assertThat(named).as("components named: %s", description).isEqualTo(Math.min(n, KymaStatusSummary.NAMED));
        if (n > KymaStatusSummary.NAMED) {
            assertThat(message).as(description).contains("; and " + (n - KymaStatusSummary.NAMED) + " more");
        }
        assertThat(status.getComponents().getReady())
                .as("a component being deleted is not counted installed: %s", description)
                .isZero();
        assertThat(message.length()).as("bounded: %s", description).isLessThan(2_000);
        for (HelmComponent c : cached) {
            assertThat(api.deleted.contains(c.getMetadata().getName()))
                    .as("deleted once, never again while held: %s", description)
                    .isEqualTo(c.getMetadata().getDeletionTimestamp() == null);
        }
    }
}
