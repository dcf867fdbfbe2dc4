package io.kyma.operator.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** One Kyma installation: a list of modules, each installed as a {@link HelmComponent}. */
@Group(Kyma.GROUP)
@Version(Kyma.VERSION)
@ShortNames("ky")
@Categories(Kyma.CATEGORY)
// Spelled out (the defaults fabric8 would derive) so that every instance shares these two strings instead of
// computing its own in the constructor: the informer cache builds an object on every read.
@Singular("kyma")
@Plural("kymas")
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.readyComponents")
@AdditionalPrinterColumn(name = "REASON", jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason")
@AdditionalPrinterColumn(
        name = "AGE",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class Kyma extends CustomResource<KymaSpec, KymaStatus> implements Namespaced {
    public static final String GROUP = "inventory.kyma-project.io";
    public static final String VERSION = "v1alpha1";
    /** The category of all three kinds: {@code kubectl get kyma-operator} lists them together. */
    public static final String CATEGORY = "kyma-operator";
}
