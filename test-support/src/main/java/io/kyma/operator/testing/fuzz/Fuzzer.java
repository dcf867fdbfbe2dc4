package io.kyma.operator.testing.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Runs the generated sequences of a range of seeds, and shrinks each failing one to a short sequence that fails on
 * one of the same oracles, printed as a script.
 *
 * @param <W> the world
 * @param <A> the actions
 */
public final class Fuzzer<W extends AutoCloseable, A extends Action<W>> {
    /** A seed whose sequence broke a rule, shrunk to {@code kept} (positions in the seed's sequence). */
    public record Failure(long seed, List<Integer> kept, Chain.Outcome outcome, String script) {}

    /** What the seeds did: how many ran, how many actions in all, and the failures. */
    public record Summary(int seeds, long steps, List<Failure> failures) {}

    /** Makes the command that runs a seed's given positions again. */
    public interface Replay {
        String command(long seed, int steps, List<Integer> kept);
    }

    private final Generator<A> generator;
    private final Chain<W, A> chain;
    private final Replay replay;

    public Fuzzer(Generator<A> generator, Chain<W, A> chain, Replay replay) {
        this.generator = generator;
        this.chain = chain;
        this.replay = replay;
    }

    public Summary run(FuzzSettings settings, Consumer<String> log) {
        long started = System.nanoTime();
        List<Failure> failures = new ArrayList<>();
        int seeds = 0;
        long steps = 0;
        for (int s = 0; s < settings.seeds(); s++) {
            if (s > 0 && !settings.withinDuration(Duration.ofNanos(System.nanoTime() - started))) {
                break;
            }
            long seed = settings.seed() + s;
            List<A> all = generator.sequence(seed, settings.steps());
            List<Integer> positions = s == 0 && !settings.keep().isEmpty()
                    ? settings.keep()
                    : IntStream.range(0, all.size()).boxed().toList();
            Chain.Outcome outcome = chain.run(pick(all, positions));
            seeds++;
            steps += outcome.steps();
            log.accept("seed " + seed + ": " + outcome.steps() + " step(s), "
                    + (outcome.failed() ? "violated " + outcome.violations() : "no violation"));
            if (outcome.failed()) {
                failures.add(shrink(seed, all, positions.subList(0, outcome.steps()), outcome, settings, log));
            }
        }
        return new Summary(seeds, steps, failures);
    }

    private Failure shrink(
            long seed,
            List<A> all,
            List<Integer> failing,
            Chain.Outcome outcome,
            FuzzSettings settings,
            Consumer<String> log) {
        List<String> oracles = outcome.oracles();
        Chain.Outcome[] last = {outcome};
        Shrinker.Shrunk<Integer> shrunk = Shrinker.shrink(
                failing,
                candidate -> {
                    Chain.Outcome tried = chain.run(pick(all, candidate));
                    boolean same = tried.oracles().stream().anyMatch(oracles::contains);
                    if (same) {
                        last[0] = tried;
                    }
                    log.accept("  shrinking seed " + seed + ": " + candidate.size() + " action(s) "
                            + (same ? "still fail" : "pass"));
                    return same;
                },
                settings.shrinkBudget());
        String script = Script.render(
                seed,
                shrunk.actions(),
                pick(all, shrunk.actions()),
                last[0].violations(),
                replay.command(seed, settings.steps(), shrunk.actions()));
        log.accept(script);
        return new Failure(seed, shrunk.actions(), last[0], script);
    }

    private static <A> List<A> pick(List<A> all, List<Integer> positions) {
        return positions.stream().map(all::get).toList();
    }
}
