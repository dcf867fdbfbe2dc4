package io.kyma.operator.kyma;

import java.util.Optional;

import io.fabric8.kubernetes.api.model.Condition;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.common.events.Notice;
import io.kyma.operator.common.status.Conditions;

/**
 * The event a Kyma's change of phase tells, with its Ready condition's reason and message: queued (only when it
 * waits in line), admitted (its components created), Ready, deleting, and a Warning for an error. Nothing else: a Kyma's story is a handful of
 * events, not one per component.
 */
final class KymaEvents {
    static final String REASON_ADMITTED = "Admitted";

    private KymaEvents() {}

    static Optional<Notice> of(KymaPhase before, KymaStatus after) {
        KymaPhase now = after.getPhase();
        if (now == null || now == before) {
            return Optional.empty();
        }
        Optional<Condition> ready = Conditions.find(after.getConditions(), KymaStatusSummary.READY);
        String reason = ready.map(Condition::getReason).orElse(now.toString());
        String message = ready.map(Condition::getMessage).orElse(now.toString());
        if (now == KymaPhase.ERROR) {
            return Optional.of(Notice.warning(reason, message));
        }
        if ((before == null || before == KymaPhase.PENDING) && now == KymaPhase.PROCESSING) {
            return Optional.of(Notice.normal(REASON_ADMITTED, "admitted; " + message));
        }
        return Optional.of(Notice.normal(reason, message));
    }
}
