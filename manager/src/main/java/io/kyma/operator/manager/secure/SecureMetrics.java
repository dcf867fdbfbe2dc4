package io.kyma.operator.manager.secure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.manager.config.EndpointSettings;

/** What {@code --metrics-secure} serves {@code /metrics} with: the certificate, and who may read it. */
public record SecureMetrics(ServingCertificate certificate, MetricsAccess access) {
    /**
     * What the settings ask for: empty without {@code --metrics-secure} or without metrics; a self-signed certificate without
     * {@code --metrics-cert-dir}.
     *
     * @throws IllegalArgumentException when the directory's pair cannot be read
     */
    public static Optional<SecureMetrics> of(EndpointSettings settings, KubernetesClient client, Clock clock) {
        if (!settings.metricsSecure() || settings.metrics().isEmpty()) {
            return Optional.empty();
        }
        ServingCertificate certificate = settings.metricsCertDir()
                .map(dir -> ServingCertificate.fromDirectory(dir, clock))
                .orElseGet(() -> ServingCertificate.selfSigned(selfSignedNames(), clock));
        return Optional.of(new SecureMetrics(certificate, new MetricsAccess(new KubernetesReviews(client), clock)));
    }

    /** localhost, the loopback address and this host's name (a pod's name). */
    static List<String> selfSignedNames() {
        List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1"));
        try {
            String host = InetAddress.getLocalHost().getHostName();
            if (host.matches("[A-Za-z0-9.-]{1,253}") && !names.contains(host)) {
                names.add(host);
            }
        } catch (UnknownHostException e) {
            // no name to add
        }
        return names;
    }
}
