package io.kyma.operator.kyma;

import static io.kyma.operator.common.cache.LeanCache.share;

import java.util.List;

import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.cache.LeanCache;

/**
 * Kymas as the informer cache keeps them: most Kymas list the same modules, so equal module lists are one shared
 * list, and the strings of their conditions are shared.
 */
public final class KymaForm implements LeanCache.Form<Kyma> {
    @Override
    public Kyma empty() {
        return new Kyma();
    }

    @Override
    public void shareStrings(Kyma kyma) {
        if (kyma.getSpec() != null && kyma.getSpec().getModules() != null) {
            List<Module> modules = kyma.getSpec().getModules().stream()
                    .map(m -> m == null ? null : new Module(share(m.getName()), share(m.getVersion())))
                    .toList();
            kyma.getSpec().setModules(LeanCache.share(modules));
        }
        if (kyma.getStatus() != null) {
            kyma.getStatus()
                    .setConditions(LeanCache.shareConditions(kyma.getStatus().getConditions()));
        }
    }
}
