package io.kyma.operator.common.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;

class ShardLabelConditionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final Conditions at0 = new Conditions(Clock.fixed(T0, ZoneOffset.UTC));
    private final Conditions later = new Conditions(Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC));
    private final Condition ready = at0.condition(List.of(), "Ready", true, "AllComponentsReady", "all", 1L);

    @Test
    void theHandOversOwnValuesAndNoLabelAreNotReported() {
        List<Condition> previous = List.of(ready);
        for (String value : new String[] {null, Labels.SHARD_DRAIN_REQUESTED_VALUE, Labels.SHARD_DRAIN_DRAINED_VALUE}) {
            assertThat(ShardLabelCondition.apply(at0, previous, 1L, Stream.of(kyma("a", value))))
                    .as(value)
                    .isSameAs(previous);
        }
    }

    @Test
    void anyOtherValueIsReportedWithTheObjectAndItsValue() {
        List<Condition> out = ShardLabelCondition.apply(
                at0,
                List.of(ready),
                4L,
                Stream.of(kyma("a", "stop"), component("a-istio", null), component("a-ory", "Requested")));
        assertThat(out).hasSize(2).first().isEqualTo(ready);
        Condition shard = out.get(1);
        assertThat(shard.getType()).isEqualTo("ShardLabels");
        assertThat(shard.getStatus()).isEqualTo("False");
        assertThat(shard.getReason()).isEqualTo("UnknownDrainValue");
        assertThat(shard.getObservedGeneration()).isEqualTo(4L);
        assertThat(shard.getMessage())
                .isEqualTo("Kyma a has kyma-project.io/shard-drain=stop; HelmComponent a-ory has "
                        + "kyma-project.io/shard-drain=Requested: ignored, only requested and drained (the hand-over between "
                        + "shards) act");
    }

    @Test
    void aLongListNamesThreeAndCountsTheRest() {
        List<HasMetadata> many = IntStream.range(0, 100)
                .<HasMetadata>mapToObj(i -> component("c" + i, "x"))
                .toList();
        Condition shard =
                ShardLabelCondition.apply(at0, List.of(), 1L, many.stream()).get(0);
        assertThat(shard.getMessage())
                .as("by name, whatever order they came in")
                .startsWith("HelmComponent c0 has kyma-project.io/shard-drain=x; HelmComponent c1 has")
                .contains("c10 has")
                .doesNotContain("c2 has")
                .contains(" and 97 more: ignored");
        List<HasMetadata> reversed = new ArrayList<>(many);
        Collections.reverse(reversed);
        assertThat(ShardLabelCondition.apply(at0, List.of(), 1L, reversed.stream())
                        .get(0)
                        .getMessage())
                .isEqualTo(shard.getMessage());
    }

    @Test
    void theConditionKeepsItsTimeWhileReportedAndGoesWhenTheLabelDoes() {
        List<Condition> first = ShardLabelCondition.apply(at0, List.of(ready), 1L, Stream.of(kyma("a", "x")));
        List<Condition> again = ShardLabelCondition.apply(later, first, 1L, Stream.of(kyma("a", "x")));
        assertThat(again.get(1).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(ShardLabelCondition.apply(later, again, 1L, Stream.of(kyma("a", null))))
                .containsExactly(ready);
    }

    private static Kyma kyma(String name, String drain) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(meta(name, drain));
        return kyma;
    }

    private static HelmComponent component(String name, String drain) {
        HelmComponent component = new HelmComponent();
        component.setMetadata(meta(name, drain));
        return component;
    }

    private static ObjectMeta meta(String name, String drain) {
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(name).withNamespace("ns");
        if (drain != null) {
            meta.addToLabels(Labels.SHARD_DRAIN, drain);
        }
        return meta.build();
    }
}
