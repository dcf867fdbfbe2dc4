package io.kyma.operator.manager.config;

import java.util.List;
import java.util.Optional;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;

/**
 * The manager's one API client: where the API server is and how many requests a second it may send.
 *
 * @param qps requests per second; 0 or less turns the client limiter off
 */
public record ClientSettings(Optional<String> kubeconfig, double qps, int burst) {
    static final Flag<Optional<String>> KUBECONFIG = Flag.of(
            "kubeconfig",
            "",
            "A kubeconfig file; empty uses `$KUBECONFIG`, `~/.kube/config` or the in-cluster service account.",
            Parsers.optional(Parsers.text()));
    static final Flag<Double> QPS = Flag.of(
            "k8s-client-qps",
            "250",
            "API requests per second of the client; `0` or less turns the client limiter off.",
            Parsers.number());
    static final Flag<Integer> BURST = Flag.of(
            "k8s-client-burst", "250", "Burst of the client limiter (1 to 1000000).", Parsers.integer(1, 1_000_000));
    static final List<Flag<?>> FLAGS = List.of(KUBECONFIG, QPS, BURST);

    static ClientSettings from(Flags.Values values) {
        return new ClientSettings(values.get(KUBECONFIG), values.get(QPS), values.get(BURST));
    }
}
