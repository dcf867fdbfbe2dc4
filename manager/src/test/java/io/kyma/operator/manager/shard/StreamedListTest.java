package io.kyma.operator.manager.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;

class StreamedListTest {

    @Test
    void readsTheItemsAndSkipsEverythingElse() throws IOException {
        String answer = "{\"kind\":\"KymaList\",\"metadata\":{\"resourceVersion\":\"7\",\"x\":[1,{\"y\":2}]},"
                + "\"items\":[{\"apiVersion\":\"inventory.kyma-project.io/v1alpha1\",\"kind\":\"Kyma\","
                + "\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\",\"labels\":{\"k\":\"v\"}},\"spec\":{\"modules\":"
                + "[{\"name\":\"istio\"}]},\"unknown\":{\"deep\":[1,2]}},{\"metadata\":{\"name\":\"b\"}}],\"after\":1}";
        List<Kyma> read = new ArrayList<>();
        String[] token = {null};
        boolean complete = StreamedList.read(
                new ByteArrayInputStream(answer.getBytes(StandardCharsets.UTF_8)),
                Kyma.class,
                read::add,
                t -> token[0] = t);
        assertThat(complete).isTrue();
        assertThat(token[0]).isNull();
        assertThat(read).extracting(k -> k.getMetadata().getName()).containsExactly("a", "b");
        assertThat(read.get(0).getMetadata().getLabels())
                .as("only the labels the operator reads")
                .isEmpty();
        assertThat(read.get(0).getSpec()).as("a lean copy").isNull();
    }

    @Test
    void anAnswerWithoutEndIsReadOnlyAsFarAsAsked() throws IOException {
        // an answer that never ends: read an object at a time, the read ends where the reader stops
        InputStream endless = new InputStream() {
            private final byte[] head = "{\"items\":[".getBytes(StandardCharsets.UTF_8);
            private final byte[] item = ("{\"metadata\":{\"name\":\"k\",\"labels\":{\"pad\":\"" + "x".repeat(4000)
                            + "\"}}},")
                    .getBytes(StandardCharsets.UTF_8);
            private long at;

            @Override
            public int read() {
                long i = at++;
                return i < head.length ? head[(int) i] : item[(int) ((i - head.length) % item.length)];
            }
        };
        int[] seen = {0};
        boolean complete = StreamedList.read(endless, Kyma.class, k -> ++seen[0] < 2_000, t -> {});
        assertThat(complete).isFalse();
        assertThat(seen[0]).isEqualTo(2_000);
    }

    @Test
    void theContinueTokenIsReadWhereverItStands() throws IOException {
        String answer = "{\"items\":[{\"metadata\":{\"name\":\"a\"}}],\"metadata\":{\"continue\":\"next-page\"}}";
        String[] token = {null};
        StreamedList.read(
                new ByteArrayInputStream(answer.getBytes(StandardCharsets.UTF_8)),
                Kyma.class,
                k -> true,
                t -> token[0] = t);
        assertThat(token[0]).isEqualTo("next-page");
    }

    @Test
    void anItemThatIsNotAnObjectIsAnError() {
        String answer = "{\"items\":[{\"metadata\":{\"name\":\"a\"}},42]}";
        Assertions.assertThatThrownBy(() -> StreamedList.read(
                        new ByteArrayInputStream(answer.getBytes(StandardCharsets.UTF_8)),
                        Kyma.class,
                        k -> true,
                        t -> {}))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aLeanCopyKeepsWhatTheMoverReadsAndWritesAndNothingElse() {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName("a")
                .withNamespace("ns")
                .withUid("u")
                .withResourceVersion("9")
                .withLabels(Map.of("kyma-project.io/shard", "1", "tenant/any", "x".repeat(60)))
                .withAnnotations(Map.of("big", "x".repeat(1000)))
                .build());
        kyma.setSpec(new KymaSpec());
        Kyma copy = StreamedList.lean(kyma);
        assertThat(copy.getMetadata().getLabels()).containsExactly(Map.entry("kyma-project.io/shard", "1"));
        assertThat(copy.getMetadata().getResourceVersion()).isEqualTo("9");
        assertThat(copy.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(copy.getSpec()).isNull();
        assertThat(copy.getKind()).isEqualTo("Kyma");

        HelmComponent component = new HelmComponent();
        component.setMetadata(
                new ObjectMetaBuilder().withName("c").withNamespace("ns").build());
        component.setSpec(new HelmComponentSpec());
        component.getSpec().setKyma("k");
        component.getSpec().setModule("istio");
        assertThat(StreamedList.lean(component).getSpec().getKyma())
                .as("which shard it follows")
                .isEqualTo("k");
    }
}
