package io.kyma.operator.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The harness end to end on a toy world without a cluster: a counter, and a tank that overflows. */
class FuzzerTest {
    /** The toy world: a level, and what was done to it. */
    static final class Tank implements AutoCloseable {
        int level;
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    sealed interface TankAction extends Action<Tank> {}

    record Fill(int amount) implements TankAction {
        @Override
        public void apply(Tank tank) {
            tank.level += amount;
        }

        @Override
        public String script() {
            return "fill " + amount;
        }
    }

    record Drain() implements TankAction {
        @Override
        public void apply(Tank tank) {
            tank.level = 0;
        }

        @Override
        public String script() {
            return "drain";
        }
    }

    record Break() implements TankAction {
        @Override
        public void apply(Tank tank) {
            throw new IllegalStateException("the valve broke");
        }

        @Override
        public String script() {
            return "break the valve";
        }
    }

    private static final Generator<TankAction> ACTIONS = new Generator<TankAction>()
            .weight(6, random -> new Fill(random.between(1, 3)))
            .weight(2, random -> new Drain());

    private static final Oracle<Tank> NO_OVERFLOW =
            new Oracle<>("no-overflow", tank -> tank.level > 10 ? List.of("level " + tank.level) : List.of());

    private final List<Tank> worlds = new ArrayList<>();

    private Chain<Tank, TankAction> chain(List<Oracle<Tank>> atQuiescence) {
        return new Chain<>(
                () -> {
                    Tank tank = new Tank();
                    worlds.add(tank);
                    return tank;
                },
                List.of(NO_OVERFLOW),
                tank -> atQuiescence.stream()
                        .flatMap(o -> o.check(tank).stream())
                        .toList());
    }

    @Test
    void anOverflowIsFoundAndShrunkToFillsAloneAsAReplayableScript() {
        Fuzzer<Tank, TankAction> fuzzer = new Fuzzer<>(
                ACTIONS, chain(List.of()), (seed, steps, kept) -> "replay " + seed + " " + steps + " " + kept);
        List<String> log = new ArrayList<>();

        Fuzzer.Summary summary = fuzzer.run(new FuzzSettings(1, 5, 60, null, List.of(), 200, false), log::add);

        assertThat(summary.seeds()).isEqualTo(5);
        assertThat(summary.failures()).isNotEmpty();
        for (Fuzzer.Failure failure : summary.failures()) {
            List<TankAction> all = ACTIONS.sequence(failure.seed(), 60);
            List<TankAction> kept = failure.kept().stream().map(all::get).toList();
            // the shortest overflow: fills only, no drain, and no fill that could go
            assertThat(kept).allMatch(a -> a instanceof Fill);
            int sum = kept.stream().mapToInt(a -> ((Fill) a).amount()).sum();
            assertThat(sum).isGreaterThan(10);
            assertThat(sum
                            - kept.stream()
                                    .mapToInt(a -> ((Fill) a).amount())
                                    .min()
                                    .orElseThrow())
                    .isLessThanOrEqualTo(10);
            assertThat(failure.script())
                    .startsWith("# seed " + failure.seed() + ": " + kept.size() + " action(s)\n")
                    .contains("# violated no-overflow: level " + sum)
                    .contains("# replay: replay " + failure.seed() + " 60 " + failure.kept())
                    .contains(kept.get(0).script() + "   # " + failure.kept().get(0));
        }
        assertThat(worlds).allMatch(t -> t.closed);
    }

    @Test
    void theKeptPositionsOfAScriptRunThatSequenceAgain() {
        List<TankAction> all = ACTIONS.sequence(3, 40);
        List<Integer> fills = new ArrayList<>();
        for (int i = 0; i < all.size() && fills.size() < 3; i++) {
            if (all.get(i) instanceof Fill) {
                fills.add(i);
            }
        }
        int level = fills.stream().mapToInt(i -> ((Fill) all.get(i)).amount()).sum();
        Fuzzer<Tank, TankAction> fuzzer = new Fuzzer<>(
                ACTIONS, chain(List.of(new Oracle<>("exact", t -> List.of("level " + t.level)))), (s, n, k) -> "");

        Fuzzer.Summary summary = fuzzer.run(new FuzzSettings(3, 1, 40, null, fills, 0, false), line -> {});

        assertThat(summary.steps()).isEqualTo(fills.size());
        assertThat(summary.failures()).singleElement().satisfies(f -> {
            assertThat(f.outcome().atQuiescence()).isTrue();
            assertThat(f.outcome().violations()).containsExactly(new Violation("exact", "level " + level));
            assertThat(f.kept()).isEqualTo(fills);
        });
    }

    @Test
    void settlingEachStepPinsAQuiescenceFailureToItsAction() {
        Oracle<Tank> low = new Oracle<>("low", t -> t.level > 4 ? List.of("level " + t.level) : List.of());
        List<TankAction> actions = List.of(new Fill(2), new Fill(2), new Fill(2), new Drain(), new Fill(1));
        Chain<Tank, TankAction> eachStep = new Chain<>(Tank::new, List.of(), low::check, true);
        Chain<Tank, TankAction> atEnd = new Chain<>(Tank::new, List.of(), low::check, false);

        assertThat(eachStep.run(actions)).satisfies(o -> {
            assertThat(o.steps()).isEqualTo(3);
            assertThat(o.atQuiescence()).isTrue();
            assertThat(o.oracles()).containsExactly("low");
        });
        assertThat(atEnd.run(actions).failed()).as("drained before the end").isFalse();
    }

    @Test
    void theWorldsOwnTickComesBeforeEachActionAndBeforeTheFinalJudgement() {
        Oracle<Tank> low = new Oracle<>("low", t -> t.level > 4 ? List.of("level " + t.level) : List.of());
        for (int length = 0; length <= 4; length++) {
            List<TankAction> fills = Collections.nCopies(length, new Fill(3));
            List<Integer> seen = new ArrayList<>();
            // the tick drains the tank before the final judgement, so no sequence of fills ends high
            Chain<Tank, TankAction> chain = new Chain<>(Tank::new, List.of(), low::check, false, (tank, left) -> {
                seen.add(left);
                if (left == 0) {
                    tank.level = 0;
                }
            });

            assertThat(chain.run(fills).failed()).as("%d fills", length).isFalse();
            List<Integer> expected = new ArrayList<>();
            for (int left = length; left >= 0; left--) {
                expected.add(left);
            }
            assertThat(seen).as("%d fills", length).isEqualTo(expected);
        }
    }

    @Test
    void anActionThatThrowsIsAViolationNamingIt() {
        Chain<Tank, TankAction> chain = chain(List.of());
        Chain.Outcome outcome = chain.run(List.of(new Fill(1), new Break(), new Fill(1)));
        assertThat(outcome.steps()).isEqualTo(2);
        assertThat(outcome.violations())
                .singleElement()
                .satisfies(v -> assertThat(v.toString()).startsWith("action: break the valve threw"));
    }

    @Test
    void settingsComeFromSystemPropertiesOverDefaults() {
        FuzzSettings defaults = new FuzzSettings(42, 1, 12, null, List.of(), 0, true);
        assertThat(FuzzSettings.fromSystemProperties(defaults)).isEqualTo(defaults);
        assertThat(FuzzSettings.duration("90s")).hasSeconds(90);
        assertThat(FuzzSettings.duration("30m")).hasMinutes(30);
        assertThat(FuzzSettings.keep("3, 17,42")).containsExactly(3, 17, 42);
        FuzzSettings timed = new FuzzSettings(1, 10, 5, FuzzSettings.duration("2h"), List.of(), 0, false);
        assertThat(timed.withinDuration(FuzzSettings.duration("119m"))).isTrue();
        assertThat(timed.withinDuration(FuzzSettings.duration("2h"))).isFalse();
    }
}
