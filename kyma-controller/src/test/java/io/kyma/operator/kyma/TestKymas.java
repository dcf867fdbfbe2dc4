package io.kyma.operator.kyma;

import java.util.HashMap;
import java.util.List;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;

/** Kymas as the controller's tests meet them: in namespace {@code ns}, generation 1, made on 2026-01-01. */
final class TestKymas {
    private TestKymas() {}

    /** A Kyma of {@code modules}, each without a version. */
    static Kyma kyma(String name, String uid, String... modules) {
        return kyma(
                name,
                uid,
                List.of(modules).stream().map(m -> new Module(m, null)).toList());
    }

    static Kyma kyma(String name, String uid, List<Module> modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withUid(uid)
                .withGeneration(1L)
                .withCreationTimestamp("2026-01-01T00:00:00Z")
                .withLabels(new HashMap<>())
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(modules);
        return kyma;
    }
}
