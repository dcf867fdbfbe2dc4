package io.kyma.operator.bench;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples of the Prometheus text format, with the sums and quantiles the benchmark needs. */
record PromText(List<Sample> samples) {
    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    record Sample(String name, Map<String, String> labels, double value) {}

    static PromText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            try {
                samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
            } catch (NumberFormatException e) {
                // +Inf and NaN values are of no use here
            }
        }
        return new PromText(samples);
    }

    /** Whether any sample of the metric is there. */
    boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    double sum(String name) {
        return sum(name, labels -> true);
    }

    double sum(String name, Predicate<Map<String, String>> filter) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && filter.test(s.labels()))
                .mapToDouble(Sample::value)
                .sum();
    }

    /** Cumulative bucket counts by upper bound, summed over every series of a histogram. */
    TreeMap<Double, Double> buckets(String histogram) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (Sample s : samples) {
            if (s.name().equals(histogram + "_bucket")
                    && !"+Inf".equals(s.labels().get("le"))) {
                buckets.merge(Double.parseDouble(s.labels().get("le")), s.value(), Double::sum);
            }
        }
        return buckets;
    }

    /**
     * The bucket the q-quantile of the observations between two scrapes falls in, as {@code lower..upper} seconds
     * ({@code >last} beyond the last finite bucket, {@code none} without observations): a histogram knows no more.
     */
    static String bucketRange(double q, TreeMap<Double, Double> before, TreeMap<Double, Double> after, double total) {
        if (total <= 0) {
            return "none";
        }
        double rank = q * total;
        double lower = 0;
        for (var bucket : after.entrySet()) {
            if (Double.isInfinite(bucket.getKey())) {
                break;
            }
            if (bucket.getValue() - before.getOrDefault(bucket.getKey(), 0.0) >= rank) {
                return plain(lower) + ".." + plain(bucket.getKey());
            }
            lower = bucket.getKey();
        }
        return ">" + plain(lower);
    }

    /**
     * How many of the observations between two scrapes fell in each bucket, as {@code lower..upper} seconds in order,
     * and beyond the last finite bucket as {@code >last}.
     */
    static LinkedHashMap<String, Double> bucketCounts(
            TreeMap<Double, Double> before, TreeMap<Double, Double> after, double total) {
        LinkedHashMap<String, Double> counts = new LinkedHashMap<>();
        double lower = 0;
        double below = 0;
        for (var bucket : after.entrySet()) {
            double cumulative = bucket.getValue() - before.getOrDefault(bucket.getKey(), 0.0);
            counts.put(plain(lower) + ".." + plain(bucket.getKey()), cumulative - below);
            lower = bucket.getKey();
            below = cumulative;
        }
        counts.put(">" + plain(lower), Math.max(0, total - below));
        return counts;
    }

    private static String plain(double seconds) {
        return BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString();
    }

    /** The q-quantile of the observations between two scrapes, interpolated inside its bucket as Prometheus does. */
    static double quantile(double q, TreeMap<Double, Double> before, TreeMap<Double, Double> after, double total) {
        if (total <= 0) {
            return 0;
        }
        double rank = q * total;
        double lowerBound = 0;
        double lowerCount = 0;
        for (var bucket : after.entrySet()) {
            double count = bucket.getValue() - before.getOrDefault(bucket.getKey(), 0.0);
            if (count >= rank) {
                double inBucket = count - lowerCount;
                return inBucket <= 0
                        ? bucket.getKey()
                        : lowerBound + (bucket.getKey() - lowerBound) * (rank - lowerCount) / inBucket;
            }
            lowerBound = bucket.getKey();
            lowerCount = count;
        }
        return lowerBound;
    }
}
