package io.kyma.operator.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The operator's live heap (after a full collection) and RSS against the objects it watches, at every tenth of the
 * load's objects: the curve from an empty operator to N Kymas. Each point costs the operator one full collection,
 * a stop of all its threads, and shrinks its heap: only with {@code --heap-probes}, else the curve has only the point
 * the bench takes after the load.
 */
final class HeapCurve {
    static final int STEPS = 10;

    record Point(double watchedObjects, double rssMiB, double liveHeapMiB) {}

    private final OperatorUnderTest operator;
    private final double expectedObjects;
    private final boolean probing;
    private final List<Point> points = new ArrayList<>();
    private int nextStep = 1;
    private double largestDuringLoad = -1;
    private String largestHistogram = "";

    HeapCurve(OperatorUnderTest operator, double expectedObjects, boolean probing) {
        this.operator = operator;
        this.expectedObjects = expectedObjects;
        this.probing = probing;
    }

    /** Records a point if the watched objects have reached the next tenth of the load (the last one is left out). */
    void maybeSample(double watched) throws IOException, InterruptedException {
        if (probing && nextStep < STEPS && watched >= expectedObjects * nextStep / STEPS) {
            while (nextStep < STEPS && watched >= expectedObjects * nextStep / STEPS) {
                nextStep++;
            }
            OperatorProcess.LiveHeap live = operator.liveHeap(40);
            double heap = live.bytes();
            String histogram = live.histogram();
            sample(watched, operator.rssMiB(), heap);
            if (heap > largestDuringLoad) {
                largestDuringLoad = heap;
                largestHistogram = String.format(
                        Locale.ROOT,
                        "Live heap %.1f MiB at %d watched objects, the largest"
                                + " of the samples during the load:%n%s",
                        heap / (1 << 20),
                        (long) watched,
                        histogram);
            }
        }
    }

    void sample(double watched, double rssMiB, double heapBytes) {
        points.add(new Point(watched, rssMiB, heapBytes / (1 << 20)));
    }

    /** The class histogram of the sample during the load with the largest live heap, or "" if none was taken. */
    String largestHistogram() {
        return largestHistogram;
    }

    List<Point> points() {
        return points;
    }

    /** The points of a {@link #csv()} written before. */
    static List<Point> parse(String text) {
        Csv csv = Csv.parse(text);
        List<Double> watched = csv.numbers("watched_objects");
        List<Double> rss = csv.numbers("operator_rss_mib");
        List<Double> live = csv.numbers("live_heap_mib");
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < watched.size(); i++) {
            points.add(new Point(watched.get(i), rss.get(i), live.get(i)));
        }
        return points;
    }

    String csv() {
        StringBuilder out = new StringBuilder("watched_objects,operator_rss_mib,live_heap_mib\n");
        for (Point p : points) {
            out.append(String.format(
                    Locale.ROOT, "%d,%.1f,%.1f%n", (long) p.watchedObjects(), p.rssMiB(), p.liveHeapMiB()));
        }
        return out.toString();
    }
}
