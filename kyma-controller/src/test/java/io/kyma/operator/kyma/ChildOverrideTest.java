package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaPhase;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.common.status.ApiFailure;
import io.kyma.operator.common.status.FailureClass;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/**
 * A drift restore converges or stops: over generated mutating webhooks (each rewriting one of the operator's fields,
 * or only fields of others) and generated starting drifts, a reconcile writes a component at most once; one whose
 * restore the API server stores changed back ends in a retryable failure (retried with the guard's capped backoff,
 * not at every event) with a status that names the component and the field and is not Ready; a webhook that touches
 * only others' fields lets the component converge, after which nothing is written.
 */
class ChildOverrideTest {
    /** A webhook's effect on every write of a component, and the field it overrides (null: none of the operator's). */
    record Webhook(String name, Consumer<HelmComponent> effect, String field) {}

    private static final List<Webhook> WEBHOOKS = List.of(
            new Webhook("defaults spec.version", c -> c.getSpec().setVersion("latest"), "spec.version"),
            new Webhook("sets spec.kyma", c -> c.getSpec().setKyma("other"), "spec.kyma"),
            new Webhook("sets spec.module", c -> c.getSpec().setModule("m"), "spec.module"),
            new Webhook("sets managed-by", c -> label(c, Labels.MANAGED_BY, "Helm"), "label " + Labels.MANAGED_BY),
            new Webhook("sets kyma label", c -> label(c, Labels.KYMA, "z"), "label " + Labels.KYMA),
            new Webhook("drops module label", c -> label(c, Labels.MODULE, null), "label " + Labels.MODULE),
            new Webhook(
                    "takes the controller reference",
                    c -> c.getMetadata().setOwnerReferences(new ArrayList<>()),
                    "the controller ownerReference"),
            new Webhook("adds a label of its own", c -> label(c, "team", "payments"), null),
            new Webhook(
                    "adds an annotation",
                    c -> c.getMetadata().setAnnotations(new HashMap<>(java.util.Map.of("a", "b"))),
                    null),
            new Webhook(
                    "adds a plain owner",
                    c -> {
                        List<io.fabric8.kubernetes.api.model.OwnerReference> owners = new ArrayList<>(
                                c.getMetadata().getOwnerReferences() == null
                                        ? List.of()
                                        : c.getMetadata().getOwnerReferences());
                        if (owners.stream().noneMatch(o -> "uid-cm".equals(o.getUid()))) {
                            owners.add(new OwnerReferenceBuilder()
                                    .withApiVersion("v1")
                                    .withKind("ConfigMap")
                                    .withName("cm")
                                    .withUid("uid-cm")
                                    .build());
                        }
                        c.getMetadata().setOwnerReferences(owners);
                    },
                    null));

    /** What the component looks like before the first reconcile: absent, or drifted in one field. */
    private static final List<Consumer<HelmComponent>> DRIFTS = java.util.Arrays.asList(
            null,
            c -> {}, // as desired: never written, whatever a webhook would do
            c -> c.getSpec().setVersion("6.6.6"),
            c -> c.getSpec().setKyma("someone-else"),
            c -> label(c, Labels.MANAGED_BY, null),
            c -> label(c, Labels.MODULE, "other"));

    private static final int RECONCILES = 4;

    @Test
    void aRestoreThatAdmissionUndoesIsReportedAndRetriedWithBackoffNeverRewrittenAtEveryEvent() {
        int checked = 0;
        for (Webhook webhook : WEBHOOKS) {
            for (int d = 0; d < DRIFTS.size(); d++) {
                check(webhook, DRIFTS.get(d), d != 1, webhook.name() + ", drift " + d);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(WEBHOOKS.size() * DRIFTS.size());
    }

    /** @param written whether the operator writes the component (absent or drifted), which the webhook then changes */
    private void check(Webhook webhook, Consumer<HelmComponent> drift, boolean written, String description) {
        FakeComponentServer api = new FakeComponentServer();
        SharedStore<HelmComponent> store = new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
        store.syncedWhen(() -> true);
        KymaReconciler reconciler = new KymaReconciler(
                new MutableClock(Instant.parse("2026-01-02T00:00:00Z")), Duration.ZERO, store, -1, api);
        Kyma kyma = TestKymas.kyma("k", "uid-k", List.of(new Module("ory", "1.0")));
        api.liveKymas.put("k", "uid-k");
        if (drift != null) {
            HelmComponent existing = ChildComponents.desired(kyma, new Module("ory", "1.0"));
            existing.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
            drift.accept(existing);
            api.put(existing);
        }
        api.admission = webhook.effect();
        boolean overridden = false;
        for (int round = 0; round < RECONCILES; round++) {
            List<HelmComponent> secondary = new ArrayList<>();
            HelmComponent held = api.object("k-ory");
            if (held != null) {
                store.put(store.getKey(held), held);
                HelmComponent lean = store.get(store.getKey(held));
                if (Ownership.controlledBy(lean, "uid-k")) {
                    secondary.add(lean);
                }
            }
            long writesBefore = api.requests("restore") + api.requests("create");
            RuntimeException failure = null;
            try {
                reconciler.reconcile(kyma, new FakeContext<>(kyma, secondary));
            } catch (RuntimeException e) {
                failure = e;
            }
            long writes = api.requests("restore") + api.requests("create") - writesBefore;
            assertThat(writes)
                    .as("at most one write a reconcile: %s", description)
                    .isLessThanOrEqualTo(1);
            var ready = api.lastStatus.getConditions().get(0);
            if (failure != null) {
                overridden = true;
                assertThat(failure).as(description).isInstanceOf(ChildSync.FieldsOverridden.class);
                assertThat(ApiFailure.classify(failure))
                        .as("retried with backoff: %s", description)
                        .isEqualTo(FailureClass.RETRY);
                assertThat(webhook.field())
                        .as("only the operator's fields: %s", description)
                        .isNotNull();
                assertThat(api.lastStatus.getPhase()).as(description).isNotEqualTo(KymaPhase.READY);
                assertThat(ready.getReason()).as(description).isEqualTo(KymaStatusSummary.REASON_OVERRIDDEN);
                assertThat(ready.getMessage())
                        .as(description)
                        .contains("HelmComponent ns/k-ory")
                        .contains(webhook.field());
            } else {
                assertThat(ready.getReason()).as(description).isNotEqualTo(KymaStatusSummary.REASON_OVERRIDDEN);
            }
            if (webhook.field() == null && round == RECONCILES - 1) {
                assertThat(writes)
                        .as("converged, nothing written: %s", description)
                        .isZero();
            }
        }
        if (webhook.field() != null && written) {
            assertThat(overridden).as("reported: %s", description).isTrue();
        }
    }

    private static void label(HelmComponent component, String key, String value) {
        var labels = component.getMetadata().getLabels() == null
                ? new HashMap<String, String>()
                : new HashMap<>(component.getMetadata().getLabels());
        if (value == null) {
            labels.remove(key);
        } else {
            labels.put(key, value);
        }
        component.getMetadata().setLabels(labels);
    }
}
