package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class PromTextTest {
    private static final String BEFORE = """
            w_seconds_bucket{le="0.5"} 10
            w_seconds_bucket{le="1.0"} 10
            w_seconds_bucket{le="30.0"} 10
            w_seconds_bucket{le="60.0"} 10
            w_seconds_bucket{le="+Inf"} 10
            """;
    private static final String AFTER = """
            w_seconds_bucket{le="0.5"} 60
            w_seconds_bucket{le="1.0"} 100
            w_seconds_bucket{le="30.0"} 108
            w_seconds_bucket{le="60.0"} 109
            w_seconds_bucket{le="+Inf"} 110
            """;

    @Test
    void tellsAMetricThatIsAbsentFromOneThatIsZero() {
        PromText text = PromText.parse("# TYPE a gauge\na 0.0\nb{x=\"1\"} 2.0\n");
        assertThat(text.has("a")).isTrue();
        assertThat(text.has("b")).isTrue();
        assertThat(text.has("c")).isFalse();
    }

    @Test
    void aPercentileIsTheRangeOfItsBucketCountingOnlyWhatCameBetweenTheScrapes() {
        TreeMap<Double, Double> before = PromText.parse(BEFORE).buckets("w_seconds");
        TreeMap<Double, Double> after = PromText.parse(AFTER).buckets("w_seconds");
        assertThat(PromText.bucketRange(0.5, before, after, 100)).isEqualTo("0..0.5");
        assertThat(PromText.bucketRange(0.9, before, after, 100)).isEqualTo("0.5..1");
        assertThat(PromText.bucketRange(0.98, before, after, 100)).isEqualTo("1..30");
        assertThat(PromText.bucketRange(0.99, before, after, 100)).isEqualTo("30..60");
        assertThat(PromText.bucketRange(1.0, before, after, 100)).isEqualTo(">60");
        assertThat(PromText.bucketRange(0.99, before, before, 0)).isEqualTo("none");
    }

    @Test
    void eachBucketsShareOfWhatCameBetweenTheScrapes() {
        TreeMap<Double, Double> before = PromText.parse(BEFORE).buckets("w_seconds");
        TreeMap<Double, Double> after = PromText.parse(AFTER).buckets("w_seconds");
        assertThat(PromText.bucketCounts(before, after, 100))
                .containsExactly(
                        Map.entry("0..0.5", 50.0),
                        Map.entry("0.5..1", 40.0),
                        Map.entry("1..30", 8.0),
                        Map.entry("30..60", 1.0),
                        Map.entry(">60", 1.0));
    }
}
