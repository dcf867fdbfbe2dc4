package io.kyma.operator.testing;

/**
 * The benchmark run the Deployment's memory request is sized from, under {@code docs/bench}: {@code make bench-memory}
 * (4000 Kymas, 76,000 objects) with the Deployment's JVM settings and a 512 MiB limit, nothing forcing a collection.
 * The manifests' comments, the docs and the tests that check them all name this one.
 */
public final class SizingRun {
    public static final String N4000 = "against-go/n4000-return-narrowed";

    private SizingRun() {}
}
