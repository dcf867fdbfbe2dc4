package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;

class LoggingTest {
    @Test
    void aJsonLineCarriesTheMessageAndTheReconciledObject() throws Exception {
        LoggerContext context = new LoggerContext();
        var logger = context.getLogger("io.kyma.operator.kyma.KymaReconciler");
        LoggingEvent event = new LoggingEvent(
                "fqcn", logger, Level.INFO, "Kyma {}/{}: phase {} -> {}", null, new Object[] {"ns", "k", "a", "b"});
        event.setMDCPropertyMap(Map.of(
                "resource.kind", "Kyma",
                "resource.namespace", "ns",
                "resource.name", "k",
                "controller", "kyma",
                "reconcileID", "1f-2a"));

        String line = new String(Logging.json(context).encode(event), StandardCharsets.UTF_8);
        assertThat(line).endsWith("\n").doesNotContain("\n{");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.path("level").asText()).isEqualTo("INFO");
        assertThat(json.path("loggerName").asText()).isEqualTo("io.kyma.operator.kyma.KymaReconciler");
        assertThat(json.path("formattedMessage").asText()).isEqualTo("Kyma ns/k: phase a -> b");
        assertThat(json.path("mdc").path("resource.kind").asText()).isEqualTo("Kyma");
        assertThat(json.path("mdc").path("resource.namespace").asText()).isEqualTo("ns");
        assertThat(json.path("mdc").path("resource.name").asText()).isEqualTo("k");
        assertThat(json.path("mdc").path("reconcileID").asText()).isEqualTo("1f-2a");
        assertThat(json.has("sequenceNumber"))
                .as("logback's bookkeeping left out")
                .isFalse();
        assertThat(json.has("arguments")).isFalse();
    }
}
