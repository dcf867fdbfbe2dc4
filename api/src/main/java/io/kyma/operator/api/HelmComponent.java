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

/** One module of one Kyma, walking the installation lifecycle {@link ComponentState}. */
@Group(Kyma.GROUP)
@Version(Kyma.VERSION)
@ShortNames("hc")
@Categories(Kyma.CATEGORY)
// Spelled out (the defaults fabric8 would derive) so that every instance shares these two strings instead of
// computing its own in the constructor: the informer cache builds an object on every read.
@Singular("helmcomponent")
@Plural("helmcomponents")
@AdditionalPrinterColumn(name = "KYMA", jsonPath = ".spec.kyma")
@AdditionalPrinterColumn(name = "MODULE", jsonPath = ".spec.module")
@AdditionalPrinterColumn(name = "STATE", jsonPath = ".status.state")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(name = "REASON", jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason")
@AdditionalPrinterColumn(
        name = "AGE",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class HelmComponent extends CustomResource<HelmComponentSpec, HelmComponentStatus> implements Namespaced {}
