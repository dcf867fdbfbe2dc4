package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.events.Events;
import io.kyma.operator.common.events.Notice;

class KymaEventsTest {
    private static KymaStatus status(KymaPhase phase, String reason, String message) {
        KymaStatus status = new KymaStatus();
        status.setPhase(phase);
        status.setConditions(List.of(new ConditionBuilder()
                .withType("Ready")
                .withStatus(phase == KymaPhase.READY ? "True" : "False")
                .withReason(reason)
                .withMessage(message)
                .build()));
        return status;
    }

    @Test
    void eachChangeOfPhaseTellsTheReadyConditionsReasonAndMessage() {
        assertThat(KymaEvents.of(null, status(KymaPhase.PENDING, "Queued", "place 3 in line")))
                .contains(Notice.normal("Queued", "place 3 in line"));
        assertThat(KymaEvents.of(KymaPhase.PROCESSING, status(KymaPhase.READY, "AllComponentsReady", "all 18")))
                .contains(Notice.normal("AllComponentsReady", "all 18"));
        assertThat(KymaEvents.of(KymaPhase.READY, status(KymaPhase.DELETING, "Deleting", "18 left")))
                .contains(Notice.normal("Deleting", "18 left"));
    }

    @Test
    void leavingTheLineIsAdmittedAndAnErrorIsAWarning() {
        assertThat(KymaEvents.of(KymaPhase.PENDING, status(KymaPhase.PROCESSING, "ComponentsInstalling", "0 of 18")))
                .contains(Notice.normal("Admitted", "admitted; 0 of 18"));
        assertThat(KymaEvents.of(null, status(KymaPhase.PROCESSING, "ComponentsInstalling", "0 of 18")))
                .as("admitted at once, without waiting in line")
                .contains(Notice.normal("Admitted", "admitted; 0 of 18"));
        assertThat(KymaEvents.of(
                        KymaPhase.PROCESSING, status(KymaPhase.ERROR, "ComponentNameTaken", "k-istio is another's")))
                .hasValueSatisfying(n -> {
                    assertThat(n.type()).isEqualTo(Events.Type.WARNING);
                    assertThat(n.reason()).isEqualTo("ComponentNameTaken");
                });
    }

    @Test
    void theSamePhaseTellsNothing() {
        assertThat(KymaEvents.of(KymaPhase.PROCESSING, status(KymaPhase.PROCESSING, "ComponentsInstalling", "5 of 18")))
                .isEmpty();
    }
}
