package io.kyma.operator.manager;

import java.util.List;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;

/** Test data: the 18 modules of the original experiment. */
final class Samples {
    static final List<String> MODULES = List.of("istio", "cluster-essentials", "certificates", "istio-resources",
            "logging", "tracing", "kiali", "monitoring", "eventing", "ory", "api-gateway", "service-catalog",
            "service-catalog-addons", "rafter", "helm-broker", "cluster-users", "serverless", "application-connector");

    private Samples() {
    }

    static Kyma kyma(String namespace, String name, List<String> modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(modules.stream().map(m -> new Module(m, null)).toList());
        return kyma;
    }
}
