package io.kyma.operator.manager.config;

import java.util.List;
import java.util.Optional;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;

/** Where the manager serves {@code /metrics} and its probes; empty turns one off. */
public record EndpointSettings(Optional<BindAddress> metrics, Optional<BindAddress> healthProbes) {
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
    static final List<Flag<?>> FLAGS = List.of(METRICS, HEALTH_PROBES);

    static EndpointSettings from(Flags.Values values) {
        return new EndpointSettings(values.get(METRICS), values.get(HEALTH_PROBES));
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
