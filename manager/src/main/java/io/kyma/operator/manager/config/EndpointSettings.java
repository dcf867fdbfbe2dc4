package io.kyma.operator.manager.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;

/**
 * Where the manager serves {@code /metrics} and its probes (empty turns one off), and whether {@code /metrics} is
 * served over HTTPS to authenticated and authorized clients only.
 *
 * @param metricsCertDir with {@code metricsSecure}: the directory of {@code tls.crt} and {@code tls.key}; empty makes
 *     a self-signed certificate
 */
public record EndpointSettings(
        Optional<BindAddress> metrics,
        Optional<BindAddress> healthProbes,
        boolean metricsSecure,
        Optional<Path> metricsCertDir) {
    static final Flag<Optional<BindAddress>> METRICS = Flag.of(
            "metrics-bind-address",
            ":8080",
            "Address of `/metrics` (`[host]:port`); `0` turns it off, port `0` picks a free one.",
            BindAddress::parse);
    static final Flag<Optional<BindAddress>> HEALTH_PROBES = Flag.of(
            "health-probe-bind-address",
            ":8081",
            "Address of `/healthz` and `/readyz` (`[host]:port`); `0` turns it off.",
            BindAddress::parse);
    static final Flag<Boolean> METRICS_SECURE = Flag.ofSwitch(
            "metrics-secure",
            "false",
            "Serve `/metrics` over HTTPS, only to clients whose bearer token the API server authenticates (a"
                    + " TokenReview) and authorizes for `get` on `/metrics` (a SubjectAccessReview; grant it with"
                    + " the ClusterRole `metrics-reader`). Needs the ClusterRole `metrics-auth-role`; the Deployment"
                    + " turns it on. Off serves plain HTTP to anyone who reaches the port.");
    static final Flag<Optional<Path>> METRICS_CERT_DIR = Flag.of(
            "metrics-cert-dir",
            "",
            "With `--metrics-secure`: a directory holding `tls.crt` and `tls.key` (PEM; a mounted cert-manager"
                    + " Secret), read again within 10 s of a change; empty makes a self-signed certificate at"
                    + " start-up.",
            text -> text.isBlank() ? Optional.empty() : Optional.of(Path.of(text)));
    static final List<Flag<?>> FLAGS = List.of(METRICS, HEALTH_PROBES, METRICS_SECURE, METRICS_CERT_DIR);

    static EndpointSettings from(Flags.Values values) {
        boolean secure = values.get(METRICS_SECURE);
        Optional<Path> certDir = values.get(METRICS_CERT_DIR);
        if (certDir.isPresent() && !secure) {
            throw new FlagException(METRICS_CERT_DIR.flagName() + " is given without " + METRICS_SECURE.flagName()
                    + ": /metrics would be served over plain HTTP");
        }
        return new EndpointSettings(values.get(METRICS), values.get(HEALTH_PROBES), secure, certDir);
    }

    /** A listen address such as {@code :8080} or {@code 127.0.0.1:8080}; port 0 picks a free port. */
    public record BindAddress(String host, int port) {
        /** Parses an address; {@code 0} means off. */
        static Optional<BindAddress> parse(String text) {
            if (text.equals("0")) {
                return Optional.empty();
            }
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + text + "' is not [host]:port or 0");
            }
            int port = Integer.parseInt(text.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is out of range");
            }
            String host = text.substring(0, colon);
            return Optional.of(new BindAddress(host.isEmpty() ? "0.0.0.0" : host, port));
        }

        @Override
        public String toString() {
            return (host.equals("0.0.0.0") ? "" : host) + ":" + port;
        }
    }
}
