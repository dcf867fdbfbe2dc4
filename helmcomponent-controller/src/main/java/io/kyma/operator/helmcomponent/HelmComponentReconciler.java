package io.kyma.operator.helmcomponent;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kyma.operator.api.ComponentState;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.common.WorkPriority;
import io.kyma.operator.common.status.Conditions;
import io.kyma.operator.common.status.StatusPatch;
import io.kyma.operator.common.status.StatusWriter;

/**
 * Walks a HelmComponent through its {@link ComponentLifecycle}: one status write per transition, and a reschedule
 * for the remaining time (spread a little, see {@link TimerSpread}), so that no reconcile runs in between.
 */
@ControllerConfiguration(name = HelmComponentReconciler.NAME)
public class HelmComponentReconciler implements Reconciler<HelmComponent>, WorkPriority<HelmComponent> {
    public static final String NAME = "helmcomponent";
    /** The condition a HelmComponent is Ready by. */
    public static final String READY = "Ready";
    /** Ready=False's reason in each state before success: the state's name, as condition reasons are spelled. */
    private static final Map<ComponentState, String> REASONS = Map.of(
            ComponentState.PENDING, "Pending",
            ComponentState.STARTED, "Started",
            ComponentState.FAILING, "Failing",
            ComponentState.RETRYING, "Retrying");

    private static final Logger LOG = LoggerFactory.getLogger(HelmComponentReconciler.class);

    private final Clock clock;
    private final ComponentLifecycle lifecycle;
    private final Conditions conditions;

    private final StatusWriter<HelmComponent, HelmComponentStatus> statusWriter;
    private final TimerSpread spread;
    /** The most lateness told of one transition (see {@link #latenessOf}). */
    static final Duration MOST_LATE = Duration.ofDays(1);

    private volatile Consumer<Duration> lateness = late -> {};

    public HelmComponentReconciler(Clock clock, Duration transitionUnit) {
        this(
                clock,
                transitionUnit,
                (component, status, context) -> StatusPatch.apply(component, HelmComponent::new, status, context),
                TimerSpread.random());
    }

    HelmComponentReconciler(
            Clock clock,
            Duration transitionUnit,
            StatusWriter<HelmComponent, HelmComponentStatus> statusWriter,
            TimerSpread spread) {
        this.clock = clock;
        this.lifecycle = new ComponentLifecycle(transitionUnit);
        this.conditions = new Conditions(clock);
        this.statusWriter = statusWriter;
        this.spread = spread;
    }

    /**
     * @param lateness told how long after its due time (the previous state's start plus its dwell) each transition
     *        is written
     */
    /** A component at success with its spec observed has nothing due: its reconcile only confirms that. */
    @Override
    public boolean canWait(HelmComponent component) {
        HelmComponentStatus status = component.getStatus();
        return status != null
                && status.getState() == ComponentState.SUCCESS
                && WorkPriority.settled(component, status.getObservedGeneration());
    }

    public void recordLatenessWith(Consumer<Duration> lateness) {
        this.lateness = lateness;
    }

    @Override
    public UpdateControl<HelmComponent> reconcile(HelmComponent component, Context<HelmComponent> context) {
        Instant now = clock.instant();
        HelmComponentStatus status = component.getStatus() == null ? new HelmComponentStatus() : component.getStatus();
        String module = component.getSpec().getModule();
        Instant since = parseTime(status.getLastTransitionTime());
        boolean ahead = status.getState() != null && since != null && since.isAfter(now);
        if (ahead) {
            // Ahead of this clock (written by hand, or by a replica whose clock ran ahead): waiting for it could take
            // years. The state counts from now, and the status says so.
            writeStatus(
                    component,
                    context,
                    status.getState(),
                    now,
                    "lastTransitionTime " + status.getLastTransitionTime()
                            + " was ahead of the operator's clock; the state counts from now");
            since = now;
        }
        var step = lifecycle.next(status.getState(), since, module, now);

        if (step.enter().isPresent()) {
            ComponentState next = step.enter().get();
            Instant entered = since;
            if (status.getState() != null && entered != null) {
                lifecycle
                        .dwell(status.getState(), module)
                        .ifPresent(dwell -> lateness.accept(latenessOf(entered.plus(dwell), now)));
            }
            writeStatus(component, context, next, now, message(next, step.delay()));
            LOG.info(
                    "{} {}/{}: {} -> {}",
                    component.getKind(),
                    component.getMetadata().getNamespace(),
                    component.getMetadata().getName(),
                    status.getState() == null ? "new" : status.getState().wireName(),
                    next.wireName());
        } else if (!ahead
                && !Objects.equals(
                        status.getObservedGeneration(), component.getMetadata().getGeneration())) {
            // The spec changed (a new version); the lifecycle goes on, the status records that it was seen.
            writeStatus(component, context, status.getState(), since, status.getMessage());
        }
        return step.delay()
                .map(wait ->
                        UpdateControl.<HelmComponent>noUpdate().rescheduleAfter(roundUpToMillis(spread.after(wait))))
                .orElseGet(UpdateControl::noUpdate);
    }

    /**
     * How late a transition is, at most {@link #MOST_LATE}: a time written by hand may lie centuries back, and a
     * timer counting nanoseconds cannot hold such a span.
     */
    static Duration latenessOf(Instant due, Instant now) {
        Duration late = Duration.between(due, now);
        return late.compareTo(MOST_LATE) > 0 ? MOST_LATE : late;
    }

    private void writeStatus(
            HelmComponent component,
            Context<HelmComponent> context,
            ComponentState state,
            Instant since,
            String message) {
        HelmComponentStatus status = new HelmComponentStatus();
        status.setState(state);
        status.setLastTransitionTime(
                since == null ? null : since.truncatedTo(ChronoUnit.MILLIS).toString());
        status.setObservedGeneration(component.getMetadata().getGeneration());
        status.setMessage(message);
        List<Condition> previous = component.getStatus() == null
                ? List.of()
                : component.getStatus().getConditions();
        status.setConditions(Conditions.replace(previous, ready(previous, state, message, status)));
        statusWriter.write(component, status, context);
    }

    /** Ready: True once installed; before, False with the state as its reason, as kubectl wait and columns read it. */
    private Condition ready(
            List<Condition> previous, ComponentState state, String message, HelmComponentStatus status) {
        boolean installed = state == ComponentState.SUCCESS;
        return conditions.condition(
                previous,
                READY,
                installed,
                installed ? "Installed" : REASONS.get(state),
                message,
                status.getObservedGeneration());
    }

    private static String message(ComponentState state, Optional<Duration> wait) {
        if (wait.isEmpty()) {
            return "installed";
        }
        ComponentState following = ComponentState.values()[state.ordinal() + 1];
        return following.wireName() + " in " + GoDuration.format(wait.get());
    }

    /** A timer must not fire before the state is due; a late one is harmless. */
    private static Duration roundUpToMillis(Duration wait) {
        Duration millis = wait.truncatedTo(ChronoUnit.MILLIS);
        return millis.equals(wait) ? wait : millis.plusMillis(1);
    }

    private static Instant parseTime(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
