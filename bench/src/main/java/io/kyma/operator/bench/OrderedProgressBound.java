package io.kyma.operator.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.linear.UnboundedSolutionException;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

import io.kyma.operator.api.ComponentState;
import io.kyma.operator.helmcomponent.ComponentLifecycle;

/**
 * The shortest T(N) that any order of admission can reach when every Kyma walks its components' timers, and the
 * least mean time to Ready at that T(N): a lower bound from a linear program.
 *
 * <p>The model: all N Kymas exist at time 0; a Kyma admitted at second {@code a} makes its writes on its own
 * timetable, {@code a} plus the dwells of {@link ComponentLifecycle} (a component's create and its {@code pending}
 * status at 0, one status write at each later state), with the Kyma's own writes (the measured writes per Kyma less
 * those) at its Ready instant. A write may happen up to {@code behind} seconds after its time on the timetable. The
 * client writes at most {@code burst + rate × w} in any w seconds (its token bucket). Then the writes due in any
 * window of w seconds must fit into {@code burst + rate × (w + behind)}. Only these necessary conditions are asked for,
 * on a grid of one second and on a subset of the window lengths, so no real schedule can finish sooner than the
 * program allows (a Kyma admitted between two whole seconds is counted at the earlier one, which only makes its
 * writes due sooner inside the same windows).
 *
 * <p>The program is solved in its dual form (one row per admission second): the primal has a row per window and
 * second, the dual only a few hundred, and an unbounded dual means no schedule finishes in the given time.
 */
final class OrderedProgressBound {
    /** Writes of one component that fall on its timetable: its create and one status write per state. */
    static final int WRITES_PER_COMPONENT = 1 + ComponentState.values().length;

    /** The least T(N) in whole seconds, and the least mean time to Ready that a schedule finishing then has. */
    record Bound(int tnSeconds, double meanReadySeconds) {}

    private final double[] profile;
    private final int kymas;
    private final double rate;
    private final double burst;
    private final int behind;

    /**
     * @param profile the writes of one Kyma due at each second of its life, index 0 its admission, the last index
     *                its Ready instant
     */
    OrderedProgressBound(double[] profile, int kymas, double rate, double burst, int behind) {
        if (profile.length == 0 || kymas <= 0 || rate <= 0 || burst < 0 || behind < 0) {
            throw new IllegalArgumentException("a bound needs a profile, Kymas, a positive rate and no negative slack");
        }
        this.profile = profile.clone();
        this.kymas = kymas;
        this.rate = rate;
        this.burst = burst;
        this.behind = behind;
    }

    /**
     * The writes one Kyma of these modules makes at each second of its life at this unit (whole seconds), with
     * {@code writesPerKyma} less the components' timetabled writes at its Ready instant.
     */
    static double[] profile(List<String> modules, Duration unit, double writesPerKyma) {
        if (unit.toMillis() % 1000 != 0 || unit.isZero()) {
            throw new IllegalArgumentException("the bound counts whole seconds; the unit is " + unit);
        }
        ComponentLifecycle lifecycle = new ComponentLifecycle(unit);
        int lifetime = (int) modules.stream()
                .mapToLong(m -> lifecycle.timeToSuccess(m).toSeconds())
                .max()
                .orElseThrow();
        double[] writes = new double[lifetime + 1];
        for (String module : modules) {
            writes[0] += 2;
            long at = 0;
            for (ComponentState state : ComponentState.values()) {
                Optional<Duration> dwell = lifecycle.dwell(state, module);
                if (dwell.isEmpty()) {
                    break;
                }
                at += dwell.get().toSeconds();
                writes[(int) at] += 1;
            }
        }
        double own = writesPerKyma - (double) WRITES_PER_COMPONENT * modules.size();
        if (own < 0) {
            throw new IllegalArgumentException(writesPerKyma + " writes per Kyma are fewer than its components'");
        }
        writes[lifetime] += own;
        return writes;
    }

    /** Runs whose least T(N) is searched up to this many seconds at most; longer ones take minutes to solve. */
    static final int LONGEST_SOLVED_SECONDS = 600;

    /**
     * The least T(N) of a closed-loop run with every transition on time, or empty when the model does not fit the
     * run: an open loop (the Kymas do not all exist at the start), a unit that is not whole seconds, or a run longer
     * than {@link #LONGEST_SOLVED_SECONDS}.
     *
     * @param burst the client's burst when the client's QPS is the rate, else 0
     */
    static Optional<Bound> onTime(
            List<String> modules,
            Duration unit,
            boolean openLoop,
            int kymas,
            double writesPerKyma,
            double rate,
            double burst,
            double tnSeconds) {
        if (openLoop
                || unit.isZero()
                || unit.toMillis() % 1000 != 0
                || tnSeconds > LONGEST_SOLVED_SECONDS
                || !(rate > 0)) {
            return Optional.empty();
        }
        double[] profile = profile(modules, unit, writesPerKyma);
        return new OrderedProgressBound(profile, kymas, rate, burst, 0).least((int) Math.ceil(tnSeconds) + 1);
    }

    /** T*(N): the Kymas' writes at the rate. */
    double idealSeconds() {
        double perKyma = 0;
        for (double w : profile) {
            perKyma += w;
        }
        return kymas * perKyma / rate;
    }

    /** The smallest whole T(N) with a schedule that fits, searched up to {@code limitSeconds}. */
    Optional<Bound> least(int limitSeconds) {
        int lo = profile.length - 2;
        if (leastMeanAdmission(limitSeconds).isEmpty()) {
            return Optional.empty();
        }
        int hi = limitSeconds;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (leastMeanAdmission(mid).isPresent()) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        int lifetime = profile.length - 1;
        return Optional.of(new Bound(hi, leastMeanAdmission(hi).getAsDouble() + lifetime));
    }

    /**
     * The least mean admission second of a schedule in which every Kyma is Ready by {@code tn} seconds, or empty
     * when there is none.
     */
    OptionalDouble leastMeanAdmission(int tn) {
        int lifetime = profile.length - 1;
        int admissions = tn - lifetime + 1;
        if (admissions <= 0) {
            return OptionalDouble.empty();
        }
        double[] due = new double[profile.length + 1];
        for (int i = 0; i < profile.length; i++) {
            due[i + 1] = due[i] + profile[i];
        }
        List<double[]> rows = new ArrayList<>();
        List<Double> limits = new ArrayList<>();
        for (int window : windows(lifetime)) {
            for (int t = 0; t <= tn; t++) {
                double[] row = new double[admissions];
                boolean any = false;
                for (int a = 0; a < admissions; a++) {
                    row[a] = cumulative(due, t + window - a) - cumulative(due, t - a);
                    any |= row[a] > 0;
                }
                if (any) {
                    rows.add(row);
                    limits.add(burst + rate * (window + behind));
                }
            }
        }
        // Dual: maximise N z - sum(limit_r y_r) subject to z - sum_r(row_r[a] y_r) <= a for every a, y >= 0;
        // z is free and written as z+ - z-. Variables: y_0..y_{R-1}, z+, z-.
        int r = rows.size();
        double[] objective = new double[r + 2];
        for (int i = 0; i < r; i++) {
            objective[i] = -limits.get(i);
        }
        objective[r] = kymas;
        objective[r + 1] = -kymas;
        List<LinearConstraint> constraints = new ArrayList<>(admissions);
        for (int a = 0; a < admissions; a++) {
            double[] c = new double[r + 2];
            for (int i = 0; i < r; i++) {
                c[i] = -rows.get(i)[a];
            }
            c[r] = 1;
            c[r + 1] = -1;
            constraints.add(new LinearConstraint(c, Relationship.LEQ, a));
        }
        try {
            PointValuePair optimum = new SimplexSolver()
                    .optimize(
                            new MaxIter(1_000_000),
                            new LinearObjectiveFunction(objective, 0),
                            new LinearConstraintSet(constraints),
                            GoalType.MAXIMIZE,
                            new NonNegativeConstraint(true));
            return OptionalDouble.of(optimum.getValue() / kymas);
        } catch (UnboundedSolutionException noSchedule) {
            return OptionalDouble.empty();
        }
    }

    /** Window lengths: 1, 2, 4, ... and the whole lifetime. */
    private static List<Integer> windows(int lifetime) {
        List<Integer> windows = new ArrayList<>();
        for (int w = 1; w <= lifetime; w *= 2) {
            windows.add(w);
        }
        windows.add(lifetime + 1);
        return windows;
    }

    private static double cumulative(double[] due, int age) {
        return due[Math.max(0, Math.min(age, due.length - 1))];
    }
}
