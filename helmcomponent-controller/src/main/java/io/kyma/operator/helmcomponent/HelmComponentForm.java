package io.kyma.operator.helmcomponent;

import static io.kyma.operator.common.cache.LeanCache.share;

import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.HelmComponentStatus;
import io.kyma.operator.common.cache.LeanCache;

/**
 * HelmComponents as the informer cache keeps them: of spec and status, every string but the message is one of a
 * few thousand values (a Kyma's name, a module, a version, the second a state began), shared by all that hold it.
 */
public final class HelmComponentForm implements LeanCache.Form<HelmComponent> {
    @Override
    public HelmComponent empty() {
        return new HelmComponent();
    }

    @Override
    public void shareStrings(HelmComponent component) {
        HelmComponentSpec spec = component.getSpec();
        if (spec != null) {
            spec.setKyma(share(spec.getKyma()));
            spec.setModule(share(spec.getModule()));
            spec.setVersion(share(spec.getVersion()));
        }
        HelmComponentStatus status = component.getStatus();
        if (status != null) {
            status.setLastTransitionTime(share(status.getLastTransitionTime()));
            status.setMessage(share(status.getMessage()));
            status.setConditions(LeanCache.shareConditions(status.getConditions()));
        }
    }
}
