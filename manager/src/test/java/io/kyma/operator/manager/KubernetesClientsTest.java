package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.manager.metrics.OperatorMetrics;

class KubernetesClientsTest {
    private static final Config NOWHERE = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:1").build();

    @Test
    void watchesResumeAfterTheConfiguredIntervalNotFabric8sSecond() {
        ManagerConfig config = ManagerConfig.parse(new String[] { "--watch-reconnect-interval=250ms" }, Map.of());
        try (KubernetesClient client = KubernetesClients.create(NOWHERE, config, new OperatorMetrics(), List.of())) {
            assertThat(client.getConfiguration().getWatchReconnectInterval()).isEqualTo(250);
        }
        assertThat(NOWHERE.getWatchReconnectInterval()).as("the caller's configuration is left as it was")
                .isEqualTo(1000);
    }
}
