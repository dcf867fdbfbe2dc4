package io.kyma.operator.common.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClientException;

class ApiFailureTest {
    @Test
    void requestsTheServerRefusesAsSuchArePermanent() {
        for (int code : new int[] {400, 401, 403, 413, 422}) {
            assertThat(ApiFailure.permanent(new KubernetesClientException("no", code, null)))
                    .as("%d", code)
                    .isTrue();
        }
    }

    /** 404 among them since the control-plane restart scenario: custom resources are 404 until the CRDs are loaded. */
    @Test
    void answersThatMayPassLaterAreTransient() {
        for (int code : new int[] {404, 409, 429, 500, 503, 504}) {
            assertThat(ApiFailure.permanent(new KubernetesClientException("later", code, null)))
                    .as("%d", code)
                    .isFalse();
        }
        assertThat(ApiFailure.permanent(new KubernetesClientException("reset", new IOException("reset"))))
                .isFalse();
    }
}
