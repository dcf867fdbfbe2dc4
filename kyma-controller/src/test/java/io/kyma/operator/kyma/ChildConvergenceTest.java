package io.kyma.operator.kyma;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.HelmComponentSpec;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.KymaSpec;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Module;
import io.kyma.operator.common.cache.LeanCache;
import io.kyma.operator.common.cache.SharedStore;
import io.kyma.operator.testing.FakeContext;
import io.kyma.operator.testing.MutableClock;

/**
 * The ownership principle as an oracle over generated component states: after one reconcile, every component the Kyma
 * should control equals its desired state in the operator's fields, every other field is as it was, a component
 * another live object controls is not written to and is reported with its owner named, and an unplanned component is
 * deleted only if the Kyma controls it.
 */
class ChildConvergenceTest {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final String KYMA_MADE = "2026-01-01T00:00:00Z";
    private static final String BEFORE_KYMA = "2025-12-31T00:00:00Z";
    private static final String AFTER_KYMA = "2026-01-01T00:00:05Z";

    /** Who stands behind a generated component's controller reference, as the oracle knows it. */
    enum Holder {
        NONE(true),
        THIS_KYMA(true),
        EARLIER_KYMA_OF_THE_NAME(true),
        LATER_KYMA_OF_THE_NAME(false),
        ANOTHER_KYMA(false),
        ANOTHER_KIND(false);

        final boolean adoptable;

        Holder(boolean adoptable) {
            this.adoptable = adoptable;
        }
    }

    /** A generated component under a planned name, and what the oracle expects of it. */
    record Case(String description, HelmComponent component, Holder holder, boolean cached) {}

    private static final List<String> MODULES = List.of("istio", "ory", "kiali");

    @Test
    void everyEnumeratedStateOfOneComponentEndsAsTheOwnershipPrincipleSays() {
        int checked = 0;
        for (Holder holder : Holder.values()) {
            for (int refs = 0; refs < REF_SHAPES; refs++) {
                for (int labels = 0; labels < LABEL_EDITS; labels++) {
                    for (int spec = 0; spec < SPEC_EDITS; spec++) {
                        for (boolean foreign : new boolean[] {false, true}) {
                            for (boolean cached : new boolean[] {false, true}) {
                                Case c = generate("istio", holder, refs, labels, spec, foreign, false, cached);
                                check(List.of(c), List.of());
                                checked++;
                            }
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(1000);
    }

    @Test
    void randomMixesOfComponentsOneKymaHoldsEndAsTheOwnershipPrincipleSays() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            List<Case> cases = new ArrayList<>();
            for (String module : MODULES) {
                if (random.nextInt(5) == 0) {
                    continue; // absent: to be created
                }
                Holder holder = Holder.values()[random.nextInt(Holder.values().length)];
                cases.add(generate(
                        module,
                        holder,
                        random.nextInt(REF_SHAPES),
                        random.nextInt(LABEL_EDITS),
                        random.nextInt(SPEC_EDITS),
                        random.nextBoolean(),
                        random.nextInt(6) == 0,
                        random.nextBoolean()));
            }
            List<Case> unplanned = new ArrayList<>();
            for (String extra : List.of("old", "gone")) {
                if (random.nextBoolean()) {
                    Holder holder = Holder.values()[random.nextInt(Holder.values().length)];
                    unplanned.add(generate(
                            extra, holder, random.nextInt(REF_SHAPES), 0, 0, random.nextBoolean(), false, true));
                }
            }
            check(cases, unplanned);
        }
    }

    private void check(List<Case> planned, List<Case> unplanned) {
        MutableClock clock = new MutableClock(Instant.parse("2026-01-02T00:00:00Z"));
        FakeComponentServer api = new FakeComponentServer();
        api.now = "2026-01-02T00:00:00Z";
        SharedStore<HelmComponent> store = new SharedStore<>("Kyma", LeanCache.store(HelmComponent::new), 100);
        store.syncedWhen(() -> true);
        KymaReconciler reconciler = new KymaReconciler(clock, Duration.ofSeconds(5), store, -1, api);
        Kyma kyma = kyma();
        List<HelmComponent> secondary = new ArrayList<>();
        Map<String, HelmComponent> before = new LinkedHashMap<>();
        List<Case> all = new ArrayList<>(planned);
        all.addAll(unplanned);
        for (Case c : all) {
            HelmComponent held = api.put(c.component());
            before.put(
                    held.getMetadata().getName(),
                    JSON.clone(api.object(held.getMetadata().getName())));
            if (c.cached()) {
                store.put(store.getKey(held), held);
                HelmComponent lean = store.get(store.getKey(held));
                OwnerReference controller = Ownership.controller(lean);
                if (controller != null && "uid-k".equals(controller.getUid())) { // the owner index: by uid
                    secondary.add(lean);
                }
            }
        }
        String description = all.stream().map(Case::description).toList().toString();
        // A later Kyma of the name means the API server's Kyma k is that one: this copy is stale and adopts nothing
        // of a predecessor's.
        boolean stale = all.stream().anyMatch(c -> c.holder() == Holder.LATER_KYMA_OF_THE_NAME);
        api.liveKymas.put("k", stale ? "uid-new-k" : "uid-k");
        api.liveKymas.put("j", "uid-j");
        reconciler.reconcile(kyma, new FakeContext<>(kyma, secondary));

        List<String> foreign = new ArrayList<>();
        for (String module : MODULES) {
            String name = "k-" + module;
            Case c = planned.stream()
                    .filter(p -> p.component().getMetadata().getName().equals(name))
                    .findFirst()
                    .orElse(null);
            HelmComponent after = api.object(name);
            HelmComponent desired = ChildComponents.desired(kyma, new Module(module, "1.0"));
            if (c == null) {
                assertThat(api.created).as(description).contains(name);
                assertOwnedFields(after, desired, description);
            } else if (!c.holder().adoptable || stale && c.holder() == Holder.EARLIER_KYMA_OF_THE_NAME) {
                assertThat(json(after)).as("not written: %s", description).isEqualTo(json(before.get(name)));
                foreign.add("HelmComponent " + name + " belongs to "
                        + Ownership.controller(after).getKind() + " "
                        + Ownership.controller(after).getName() + " (uid "
                        + Ownership.controller(after).getUid() + ")");
            } else if (before.get(name).getMetadata().getDeletionTimestamp() != null) {
                assertThat(json(after))
                        .as("being deleted, left to go: %s", description)
                        .isEqualTo(json(before.get(name)));
            } else {
                assertOwnedFields(after, desired, description);
                assertForeignFieldsKept(before.get(name), after, description);
            }
        }
        for (Case c : unplanned) {
            String name = c.component().getMetadata().getName();
            boolean mine = c.holder() == Holder.THIS_KYMA;
            assertThat(api.deleted.contains(name))
                    .as("deleted only if it is the Kyma's: %s", description)
                    .isEqualTo(mine);
            if (!mine) {
                assertThat(json(api.object(name))).as(description).isEqualTo(json(before.get(name)));
            }
        }
        var ready = api.lastStatus.getConditions().get(0);
        if (foreign.isEmpty()) {
            assertThat(ready.getReason()).as(description).isNotEqualTo(KymaStatusSummary.REASON_NAME_TAKEN);
        } else {
            assertThat(ready.getReason()).as(description).isEqualTo(KymaStatusSummary.REASON_NAME_TAKEN);
            foreign.forEach(f -> assertThat(ready.getMessage()).as(description).contains(f));
        }
    }

    private static void assertOwnedFields(HelmComponent after, HelmComponent desired, String description) {
        assertThat(after.getSpec()).as(description).usingRecursiveComparison().isEqualTo(desired.getSpec());
        assertThat(after.getMetadata().getLabels())
                .as(description)
                .containsAllEntriesOf(desired.getMetadata().getLabels());
        List<OwnerReference> controllers = after.getMetadata().getOwnerReferences().stream()
                .filter(o -> Boolean.TRUE.equals(o.getController()))
                .toList();
        assertThat(controllers)
                .as(description)
                .containsExactly(desired.getMetadata().getOwnerReferences().get(0));
        assertThat(after.getMetadata().getOwnerReferences().stream()
                        .filter(o -> o.getUid().equals("uid-k"))
                        .count())
                .as("one reference to the Kyma: %s", description)
                .isEqualTo(1);
    }

    private static void assertForeignFieldsKept(HelmComponent before, HelmComponent after, String description) {
        Map<String, String> foreignBefore = new HashMap<>(labels(before));
        Map<String, String> foreignAfter = new HashMap<>(labels(after));
        for (String owned : List.of(Labels.MANAGED_BY, Labels.KYMA, Labels.MODULE)) {
            foreignBefore.remove(owned);
            foreignAfter.remove(owned);
        }
        assertThat(foreignAfter).as(description).isEqualTo(foreignBefore);
        assertThat(after.getMetadata().getAnnotations())
                .as(description)
                .isEqualTo(before.getMetadata().getAnnotations());
        assertThat(after.getMetadata().getFinalizers())
                .as(description)
                .isEqualTo(before.getMetadata().getFinalizers());
        assertThat(others(after)).as("other owners, in order: %s", description).isEqualTo(others(before));
    }

    /** The references neither to the Kyma nor controlling. */
    private static List<OwnerReference> others(HelmComponent component) {
        List<OwnerReference> refs = component.getMetadata().getOwnerReferences();
        return refs == null
                ? List.of()
                : refs.stream()
                        .filter(o -> !Boolean.TRUE.equals(o.getController()) && !"uid-k".equals(o.getUid()))
                        .toList();
    }

    private static Map<String, String> labels(HelmComponent component) {
        return component.getMetadata().getLabels() == null
                ? Map.of()
                : component.getMetadata().getLabels();
    }

    // ---- the generator

    private static final int REF_SHAPES = 5;
    private static final int LABEL_EDITS = 6;
    private static final int SPEC_EDITS = 5;

    /**
     * @param refs where the controller reference stands among plain ones: alone; after a plain reference to another
     *        Kyma; before one; beside a plain reference to this Kyma (a duplicate of its uid); among plain references
     *        of other kinds, one of which a lean cache drops
     */
    private static Case generate(
            String module,
            Holder holder,
            int refs,
            int labels,
            int spec,
            boolean foreign,
            boolean deleting,
            boolean cached) {
        String name = "k-" + module;
        HelmComponent component = new HelmComponent();
        component.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withCreationTimestamp(holder == Holder.LATER_KYMA_OF_THE_NAME ? AFTER_KYMA : BEFORE_KYMA)
                .withGeneration(1L)
                .build());
        OwnerReference controller = controllerOf(holder);
        List<OwnerReference> owners = new ArrayList<>();
        switch (refs) {
            case 0 -> {}
            case 1 -> owners.add(plain("Kyma", "j", "uid-j"));
            case 2 -> {}
            case 3 -> owners.add(plain("Kyma", "k", "uid-k"));
            default -> {
                owners.add(plain("ConfigMap", "cm", "uid-cm"));
                owners.add(plain("Secret", "s", "uid-s"));
            }
        }
        if (controller != null) {
            owners.add(refs == 2 ? 0 : owners.size(), controller);
        }
        if (refs == 2) {
            owners.add(plain("Kyma", "j", "uid-j"));
        }
        component.getMetadata().setOwnerReferences(owners.isEmpty() ? null : owners);
        Map<String, String> labelMap = new HashMap<>(
                Map.of(Labels.MANAGED_BY, Labels.MANAGED_BY_VALUE, Labels.KYMA, "k", Labels.MODULE, module));
        UnaryOperator<Map<String, String>> edit = switch (labels) {
            case 1 -> l -> put(l, Labels.KYMA, "someone-else");
            case 2 -> l -> put(l, Labels.MODULE, "other");
            case 3 -> l -> remove(l, Labels.MANAGED_BY);
            case 4 -> l -> new HashMap<>();
            case 5 -> l -> put(remove(l, Labels.KYMA), Labels.SHARD_DRAIN, "requested");
            default -> l -> l;
        };
        labelMap = edit.apply(labelMap);
        if (foreign) {
            labelMap.put("team", "payments");
            component.getMetadata().setAnnotations(Map.of("note", "hands off"));
            component.getMetadata().setFinalizers(List.of("example.com/hold"));
        }
        component.getMetadata().setLabels(labelMap.isEmpty() ? null : labelMap);
        HelmComponentSpec specOf = new HelmComponentSpec();
        specOf.setKyma(spec == 1 ? "someone-else" : spec == 4 ? null : "k");
        specOf.setModule(spec == 2 ? "other" : module);
        specOf.setVersion(spec == 3 ? "6.6.6" : "1.0");
        component.setSpec(specOf);
        if (deleting) {
            component.getMetadata().setDeletionTimestamp("2026-01-01T12:00:00Z");
            component.getMetadata().setFinalizers(List.of("example.com/hold"));
        }
        String description = name + "[" + holder + ", refs " + refs + ", labels " + labels + ", spec " + spec
                + (foreign ? ", foreign fields" : "") + (deleting ? ", deleting" : "") + (cached ? ", cached" : "")
                + "]";
        return new Case(description, component, holder, cached);
    }

    private static OwnerReference controllerOf(Holder holder) {
        OwnerReference ref = switch (holder) {
            case NONE -> null;
            case THIS_KYMA -> ChildComponents.controllerReference(kyma());
            case EARLIER_KYMA_OF_THE_NAME -> plain("Kyma", "k", "uid-old-k");
            case LATER_KYMA_OF_THE_NAME -> plain("Kyma", "k", "uid-new-k");
            case ANOTHER_KYMA -> plain("Kyma", "j", "uid-j");
            case ANOTHER_KIND -> plain("ConfigMap", "k", "uid-cm-k");
        };
        if (ref != null) {
            ref.setController(true);
        }
        return ref;
    }

    private static OwnerReference plain(String kind, String name, String uid) {
        return new OwnerReferenceBuilder()
                .withApiVersion(kind.equals("Kyma") ? "inventory.kyma-project.io/v1alpha1" : "v1")
                .withKind(kind)
                .withName(name)
                .withUid(uid)
                .build();
    }

    private static Map<String, String> put(Map<String, String> labels, String key, String value) {
        labels.put(key, value);
        return labels;
    }

    private static Map<String, String> remove(Map<String, String> labels, String key) {
        labels.remove(key);
        return labels;
    }

    private static Kyma kyma() {
        Kyma kyma = new Kyma();
        kyma.setMetadata(new ObjectMetaBuilder()
                .withName("k")
                .withNamespace("ns")
                .withUid("uid-k")
                .withGeneration(1L)
                .withCreationTimestamp(KYMA_MADE)
                .build());
        kyma.setSpec(new KymaSpec());
        kyma.getSpec()
                .setModules(MODULES.stream().map(m -> new Module(m, "1.0")).toList());
        return kyma;
    }

    private static String json(HelmComponent component) {
        return JSON.asJson(component);
    }
}
