package io.kyma.operator.kyma;

import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kyma.operator.api.ComponentCounts;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.KymaStatus;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.status.Conditions;
import io.kyma.operator.common.status.ShardLabelCondition;

/** Computes a Kyma's status from its plan and the components that exist. */
public final class KymaStatusSummary {
    public static final String READY = "Ready";
    static final String REASON_READY = "AllComponentsReady";
    static final String REASON_INSTALLING = "ComponentsInstalling";
    static final String REASON_INVALID = "InvalidSpec";
    static final String REASON_DELETING = "Deleting";
    static final String REASON_FINALIZERS = "ComponentFinalizers";
    static final String REASON_NAME_TAKEN = "ComponentNameTaken";
    static final String REASON_QUEUED = "Queued";
    static final String REASON_OVERRIDDEN = "ComponentFieldsOverridden";
    /** How many problems, or components held, a status message names at most, then says how many more. */
    static final int NAMED = 3;

    private final Conditions conditions;

    public KymaStatusSummary(Conditions conditions) {
        this.conditions = conditions;
    }

    /**
     * Something that stops a Kyma from being installed, with its CamelCase reason and a message for its user.
     *
     * @param retrying whether the operator tries again by itself (a transient failure): the Kyma stays Processing
     */
    public record Problem(String reason, String message, boolean retrying) {
        public Problem(String reason, String message) {
            this(reason, message, false);
        }
    }

    public KymaStatus summarise(Kyma kyma, ModulePlan plan, Collection<HelmComponent> components) {
        return summarise(kyma, plan, components, List.of());
    }

    /**
     * @param problems what went wrong in this reconcile, for example a component name another Kyma holds; any makes
     *        the phase Error
     */
    public KymaStatus summarise(
            Kyma kyma, ModulePlan plan, Collection<HelmComponent> components, List<Problem> problems) {
        ComponentCounts counts = count(kyma, plan, components);
        KymaPhase phase;
        String reason;
        String message;
        if (!plan.valid()) {
            phase = KymaPhase.ERROR;
            reason = REASON_INVALID;
            message = String.join("; ", plan.problems());
        } else if (!problems.isEmpty()) {
            List<Problem> lasting = problems.stream().filter(p -> !p.retrying()).toList();
            List<Problem> shown = lasting.isEmpty() ? problems : lasting;
            phase = lasting.isEmpty() ? KymaPhase.PROCESSING : KymaPhase.ERROR;
            reason = shown.get(0).reason();
            // a hold is waited out on the holder's events, anything else retried with backoff
            boolean backoff = lasting.isEmpty()
                    && shown.stream().anyMatch(p -> !p.reason().equals(REASON_FINALIZERS));
            message = named(shown.stream().map(Problem::message).toList()) + (backoff ? "; retrying with backoff" : "");
        } else if (counts.getReady() == counts.getTotal()) {
            phase = KymaPhase.READY;
            reason = REASON_READY;
            message = "all " + counts.getTotal() + " components are installed";
        } else {
            phase = KymaPhase.PROCESSING;
            reason = REASON_INSTALLING;
            message = counts.getReady() + " of " + counts.getTotal() + " components installed";
        }
        return status(kyma, phase, counts, reason, message, Stream.concat(Stream.of(kyma), components.stream()));
    }

    /** The first {@link #NAMED} of {@code items}, and how many more there are. */
    static String named(List<String> items) {
        String shown = String.join("; ", items.subList(0, Math.min(items.size(), NAMED)));
        return items.size() > NAMED ? shown + "; and " + (items.size() - NAMED) + " more" : shown;
    }

    /** The status of a Kyma waiting in line for its components to be created. */
    public KymaStatus queued(Kyma kyma, ModulePlan plan, Admission.Place place) {
        ComponentCounts counts = new ComponentCounts();
        counts.setTotal(plan.modules().size());
        String ahead = switch (place.ahead()) {
            case 0 -> "it is next in line";
            case 1 -> "1 Kyma of its namespace created before it is ahead in line";
            default -> place.ahead() + " Kymas of its namespace created before it are ahead in line";
        };
        return status(
                kyma,
                KymaPhase.PENDING,
                counts,
                REASON_QUEUED,
                "waiting for the operator's write budget: "
                        + ahead + " (as of " + place.asOf().truncatedTo(ChronoUnit.SECONDS)
                        + "); a namespace's components are created oldest Kyma first, as fast as the API server takes the writes",
                Stream.of(kyma));
    }

    /**
     * The status shown while the Kyma waits for its components to be deleted: the counts of those left, and what
     * holds them ({@link DeletionHold}).
     */
    public KymaStatus deleting(Kyma kyma, ModulePlan plan, List<HelmComponent> remaining, Problem hold) {
        return status(
                kyma,
                KymaPhase.DELETING,
                count(kyma, plan, remaining).bounded(),
                hold.reason(),
                hold.message(),
                Stream.of(kyma));
    }

    /** @param labelled the Kyma and what of its components it has, whose shard-drain labels the status reports */
    private KymaStatus status(
            Kyma kyma,
            KymaPhase phase,
            ComponentCounts counts,
            String reason,
            String message,
            Stream<? extends HasMetadata> labelled) {
        List<Condition> previous =
                kyma.getStatus() == null ? List.of() : kyma.getStatus().getConditions();
        Long generation = kyma.getMetadata().getGeneration();
        KymaStatus status = new KymaStatus();
        status.setPhase(phase);
        status.setObservedGeneration(generation);
        status.setComponents(counts);
        status.setReadyComponents(counts.getReady() + "/" + counts.getTotal());
        List<Condition> ready = Conditions.replace(
                previous, conditions.condition(previous, READY, phase == KymaPhase.READY, reason, message, generation));
        status.setConditions(ShardLabelCondition.apply(conditions, ready, generation, labelled));
        return status;
    }

    /**
     * Counts only the components the plan asks for, each by its name ({@link ModulePlan#componentName}): anyone may
     * make more objects naming the Kyma as owner and one of its modules, and those neither count nor take a
     * component's place. The total is the plan's size.
     */
    static ComponentCounts count(Kyma kyma, ModulePlan plan, Collection<HelmComponent> components) {
        ComponentCounts counts = new ComponentCounts();
        counts.setTotal(plan.modules().size());
        for (HelmComponent component : components) {
            Module module = plan.modules().get(component.getSpec().getModule());
            if (module == null
                    || component.getStatus() == null
                    || component.getStatus().getState() == null
                    || !ModulePlan.componentName(kyma, module.getName())
                            .equals(component.getMetadata().getName())) {
                continue;
            }
            if (!upToDate(component, module) || component.getMetadata().getDeletionTimestamp() != null) {
                // its state is about an older spec, or about an install that is being taken away
                counts.setPending(counts.getPending() + 1);
                continue;
            }
            ComponentState state = component.getStatus().getState();
            switch (state) {
                case PENDING -> counts.setPending(counts.getPending() + 1);
                case STARTED -> counts.setStarted(counts.getStarted() + 1);
                case FAILING -> counts.setFailing(counts.getFailing() + 1);
                case RETRYING -> counts.setRetrying(counts.getRetrying() + 1);
                case SUCCESS -> counts.setSuccess(counts.getSuccess() + 1);
            }
        }
        counts.setReady(counts.getSuccess());
        return counts;
    }

    /**
     * Whether a component's state is about the spec the Kyma asks for: its version is the module's, and its controller
     * has seen that spec (its status' observedGeneration is the component's generation).
     */
    static boolean upToDate(HelmComponent component, Module module) {
        return Objects.equals(component.getSpec().getVersion(), module.getVersion())
                && Objects.equals(
                        component.getStatus().getObservedGeneration(),
                        component.getMetadata().getGeneration());
    }
}
