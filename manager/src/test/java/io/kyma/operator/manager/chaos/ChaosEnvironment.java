package io.kyma.operator.manager.chaos;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.remotejob.JobServer;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;

/**
 * What every scenario on the embedded control plane needs, for the whole test class: an admin client with the CRDs
 * installed and a job service for the Runs. Register it with {@code @RegisterExtension}.
 */
final class ChaosEnvironment implements BeforeAllCallback, AfterAllCallback {
    private static final AtomicBoolean WARM = new AtomicBoolean();

    /**
     * Whether this JVM still has to run a scenario once before a baseline: its first run is slower while the JIT
     * compiles the operator, which is no fair baseline. True once per JVM, for the first scenario that asks.
     */
    static boolean coldJvm() {
        return !WARM.getAndSet(true);
    }

    private KubernetesClient admin;
    private JobServer jobs;

    @Override
    public void beforeAll(ExtensionContext context) {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
        jobs = JobServer.start("127.0.0.1", 0);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        jobs.close();
        admin.close();
    }

    KubernetesClient admin() {
        return admin;
    }

    JobServer jobs() {
        return jobs;
    }
}
