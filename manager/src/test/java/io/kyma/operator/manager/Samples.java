package io.kyma.operator.manager;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.kyma.operator.api.JobSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Module;
import io.kyma.operator.api.Run;
import io.kyma.operator.api.RunSpec;
import io.kyma.operator.testing.Modules;

/** Test data: the 18 modules of the original experiment. */
public final class Samples {
    public static final List<String> MODULES = Modules.EIGHTEEN;

    private Samples() {}

    public static Kyma kyma(String namespace, String name, List<String> modules) {
        Kyma kyma = new Kyma();
        kyma.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec().setModules(modules.stream().map(m -> new Module(m, null)).toList());
        return kyma;
    }

    /** A Run of job {@code job} with {@code params}, polled every {@code poll}; {@code timeout} may be null. */
    public static Run run(String ns, String name, String job, Map<String, String> params, String poll, String timeout) {
        Run run = new Run();
        run.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
        run.setSpec(new RunSpec());
        run.getSpec().setJob(new JobSpec());
        run.getSpec().getJob().setName(job);
        run.getSpec().getJob().setParams(params);
        run.getSpec().setPollInterval(poll);
        run.getSpec().setTimeout(timeout);
        return run;
    }
}
