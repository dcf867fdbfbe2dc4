package io.kyma.operator.testing;

import java.util.List;

/**
 * The 18 modules of one Kyma in the original scale experiment, in its order. A component of module {@code m} is
 * successful 1 + 3 × {@code m.length()} transition units after its creation; the longest name,
 * {@code service-catalog-addons}, sets a Kyma's time to Ready (67 units).
 */
public final class Modules {
    public static final List<String> EIGHTEEN = List.of(
            "istio",
            "cluster-essentials",
            "certificates",
            "istio-resources",
            "logging",
            "tracing",
            "kiali",
            "monitoring",
            "eventing",
            "ory",
            "api-gateway",
            "service-catalog",
            "service-catalog-addons",
            "rafter",
            "helm-broker",
            "cluster-users",
            "serverless",
            "application-connector");

    private Modules() {}
}
