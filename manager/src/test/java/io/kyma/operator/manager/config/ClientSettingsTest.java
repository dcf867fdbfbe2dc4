package io.kyma.operator.manager.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.FlagException;

class ClientSettingsTest {
    private static final List<String> DURATIONS =
            List.of("1ms", "250ms", "2500ms", "5s", "10s", "15s", "29s", "30s", "31s", "1m", "2m", "5m", "10m", "1h");

    /**
     * Every pair of request and reconcile timeout: either the manager refuses to start naming both flags, or one
     * call, all its attempts and waits included, ends within half the reconcile timeout, with as many retries as fit.
     */
    @Test
    void everyCallEndsWithinHalfTheReconcileTimeoutOrTheFlagsAreRefused() {
        for (String reconcile : DURATIONS) {
            List<String> requests = new ArrayList<>(DURATIONS);
            requests.add("");
            for (String request : requests) {
                String[] args = request.isEmpty()
                        ? new String[] {"--reconcile-timeout=" + reconcile}
                        : new String[] {"--reconcile-timeout=" + reconcile, "--k8s-request-timeout=" + request};
                Duration half = GoDuration.parse(reconcile).dividedBy(2);
                String at = request + " within " + reconcile;
                ClientSettings settings;
                try {
                    settings = ManagerConfig.parse(args, Map.of()).client();
                } catch (FlagException e) {
                    assertThat(e.getMessage())
                            .as(at)
                            .contains("--k8s-request-timeout must be at most half of --reconcile-timeout");
                    Duration asked = request.isEmpty() ? half : GoDuration.parse(request);
                    assertThat(asked.compareTo(half) > 0 || asked.compareTo(Duration.ofMillis(1)) < 0)
                            .as("refused only when one attempt alone would not fit: %s", at)
                            .isTrue();
                    continue;
                }
                assertThat(settings.callBound()).as(at).isLessThanOrEqualTo(half);
                assertThat(settings.retries()).as(at).isBetween(0, ClientSettings.MAX_RETRIES);
                if (settings.retries() < ClientSettings.MAX_RETRIES) {
                    assertThat(ClientSettings.callBound(settings.requestTimeout(), settings.retries() + 1))
                            .as("one more retry would not fit: %s", at)
                            .isGreaterThan(half);
                }
                if (request.isEmpty()) {
                    assertThat(settings.requestTimeout())
                            .as(at)
                            .isEqualTo(half.compareTo(Duration.ofSeconds(12)) < 0 ? half : Duration.ofSeconds(12));
                }
            }
        }
    }

    @Test
    void byDefaultAWebhookThatTimedOutIsAnsweredWithinOneAttemptAndTheClientRetriesOnce() {
        ClientSettings defaults = ManagerConfig.parse(new String[0], Map.of()).client();
        assertThat(defaults.requestTimeout()).isGreaterThan(Duration.ofSeconds(10));
        // a reset connection or a 429 is sent once more: 2 attempts of 12s, 2 Retry-After waits of 2s, 100ms backoff
        assertThat(defaults.retries()).isOne();
        assertThat(defaults.callBound()).isEqualTo(Duration.ofMillis(28_100));
        ClientSettings longer = ManagerConfig.parse(new String[] {"--reconcile-timeout=5m"}, Map.of())
                .client();
        // 9 attempts of 12s, 9 Retry-After waits of 2s, backoffs of 100ms doubling to 3.2s
        assertThat(longer.retries()).isEqualTo(8);
        assertThat(longer.callBound()).isEqualTo(Duration.ofMillis(138_700));
    }

    @Test
    void aRequestTimeoutOutsideItsRangeIsRefused() {
        for (String bad : List.of("0s", "500us", "2h", "soon")) {
            assertThatThrownBy(() -> ManagerConfig.parse(new String[] {"--k8s-request-timeout=" + bad}, Map.of()))
                    .as(bad)
                    .isInstanceOf(FlagException.class)
                    .hasMessageContaining("--k8s-request-timeout");
        }
    }
}
