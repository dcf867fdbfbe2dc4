package io.kyma.operator.testing.fuzz;

import java.util.List;
import java.util.function.Function;

/**
 * A rule about a world, named, as a function from the world to what breaks it (empty when it holds).
 *
 * @param <W> the world it judges
 */
public record Oracle<W>(String name, Function<W, List<String>> findings) {
    public List<Violation> check(W world) {
        return findings.apply(world).stream()
                .map(finding -> new Violation(name, finding))
                .toList();
    }
}
