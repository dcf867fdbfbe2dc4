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

/** A job started on a remote job service and polled until it finishes. */
@Group(Kyma.GROUP)
@Version(Kyma.VERSION)
// Spelled out (the defaults fabric8 would derive) so that every instance shares these two strings instead of
// computing its own in the constructor: the informer cache builds an object on every read.
@ShortNames("kr")
@Categories(Kyma.CATEGORY)
@Singular("run")
@Plural("runs")
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "SUCCEEDED", jsonPath = ".status.conditions[?(@.type==\"Succeeded\")].status")
@AdditionalPrinterColumn(name = "REASON", jsonPath = ".status.conditions[?(@.type==\"Succeeded\")].reason")
@AdditionalPrinterColumn(name = "REMOTE-ID", jsonPath = ".status.remoteId")
@AdditionalPrinterColumn(
        name = "AGE",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class Run extends CustomResource<RunSpec, RunStatus> implements Namespaced {}
