package io.kyma.operator.manager.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kyma.operator.api.Labels;
import io.kyma.operator.manager.fuzz.TenantAction.AddOwner;
import io.kyma.operator.manager.fuzz.TenantAction.ApiFault;
import io.kyma.operator.manager.fuzz.TenantAction.ControlKyma;
import io.kyma.operator.manager.fuzz.TenantAction.CreateKyma;
import io.kyma.operator.manager.fuzz.TenantAction.CreateRun;
import io.kyma.operator.manager.fuzz.TenantAction.CreateStray;
import io.kyma.operator.manager.fuzz.TenantAction.DeleteComponent;
import io.kyma.operator.manager.fuzz.TenantAction.DeleteKyma;
import io.kyma.operator.manager.fuzz.TenantAction.DeleteNamespace;
import io.kyma.operator.manager.fuzz.TenantAction.DeleteRun;
import io.kyma.operator.manager.fuzz.TenantAction.DropOwners;
import io.kyma.operator.manager.fuzz.TenantAction.EditComponentSpec;
import io.kyma.operator.manager.fuzz.TenantAction.EditRunServer;
import io.kyma.operator.manager.fuzz.TenantAction.Finalize;
import io.kyma.operator.manager.fuzz.TenantAction.JobAnswers;
import io.kyma.operator.manager.fuzz.TenantAction.Quota;
import io.kyma.operator.manager.fuzz.TenantAction.RecreateKyma;
import io.kyma.operator.manager.fuzz.TenantAction.Relabel;
import io.kyma.operator.manager.fuzz.TenantAction.SetModules;
import io.kyma.operator.manager.fuzz.TenantAction.Webhook;
import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.EmbeddedControlPlane;
import io.kyma.operator.testing.fuzz.Chain;
import io.kyma.operator.testing.fuzz.FuzzSettings;
import io.kyma.operator.testing.fuzz.Fuzzer;
import io.kyma.operator.testing.fuzz.Generator;
import io.kyma.operator.testing.fuzz.ScriptedJobService;
import io.kyma.operator.testing.fuzz.Seeded;

/**
 * Hostile tenants, a cluster with quotas and deleted namespaces, and a job service of every answer shape, as seeded
 * random sequences against the real operator; the principles of docs/reliability.md are checked as oracles after
 * each action and once the world has settled, and a failing sequence is shrunk to a replayable script.
 * <p>
 * {@code make test} runs one short fixed seed without shrinking; {@code make fuzz} runs many long ones (see
 * docs/testing.md). Each sequence gets a fresh operator, job service and namespaces. The waits' deadlines only catch
 * hangs: a settled world is one where every oracle holds.
 */
class HostileTenantIT {
    /**
     * The short run of {@code make test}: a fixed seed, a few steps, each meeting a settled world (so that it does not
     * hang on how the operator's work interleaves with the next action), no shrinking. Seed 7090's 40 actions include
     * a namespace's admission webhook hanging while a Kyma in the control namespace is created, then allowing again;
     * windows of API faults to the operator (503s, watches ended, connections reset, watch events lost) while Runs and
     * Kymas are created and edited; and Runs' {@code spec.server} edited to the other job service.
     */
    static final FuzzSettings SHORT = new FuzzSettings(7090, 1, 40, null, List.of(), 0, true);

    private static KubernetesClient admin;

    @BeforeAll
    static void start() {
        admin = EmbeddedControlPlane.get().newClient();
        Crds.install(admin);
    }

    @AfterAll
    static void stop() {
        admin.close();
    }

    @Test
    void theOraclesHoldForGeneratedHostileSequences() {
        FuzzSettings settings = FuzzSettings.fromSystemProperties(SHORT);
        Fuzzer<FuzzWorld, TenantAction> fuzzer = new Fuzzer<>(
                actions(),
                new Chain<>(
                        () -> new FuzzWorld(admin),
                        FuzzOracles.afterEachStep(),
                        w -> w.settle(FuzzOracles.atQuiescence()),
                        settings.settleEach(),
                        FuzzWorld::beforeStep),
                (seed, steps, kept) -> "make fuzz FUZZ_SEED=" + seed + " FUZZ_SEEDS=1 FUZZ_STEPS=" + steps
                        + " FUZZ_KEEP=" + kept.stream().map(String::valueOf).collect(Collectors.joining(","))
                        + " FUZZ_SHRINK=0 FUZZ_SETTLE_EACH=" + settings.settleEach());
        List<String> log = new ArrayList<>();
        Fuzzer.Summary summary = fuzzer.run(settings, line -> {
            System.out.println(line);
            log.add(line);
        });
        System.out.printf(
                "Hostile tenants: %d seed(s) from %d, %d step(s), %d failing%n",
                summary.seeds(),
                settings.seed(),
                summary.steps(),
                summary.failures().size());
        FuzzWorld.ISOLATION_DELAYS.forEach(line -> System.out.println("Isolation: " + line));
        FuzzWorld.API_FAULTS.forEach(line -> System.out.println("API faults: " + line));
        assertThat(summary.failures())
                .as("shrunk failing sequences")
                .extracting(Fuzzer.Failure::script)
                .isEmpty();
    }

    /** The model: what tenants, the cluster and the job service do, by weight. */
    static Generator<TenantAction> actions() {
        return new Generator<TenantAction>()
                .weight(10, r -> inRole(r, role -> new CreateKyma(role, kyma(r, role), modules(r))))
                .weight(5, r -> inRole(r, role -> new SetModules(role, kyma(r, role), modules(r))))
                .weight(4, r -> inRole(r, role -> new DeleteKyma(role, kyma(r, role))))
                .weight(3, r -> inRole(r, role -> new RecreateKyma(role, kyma(r, role), modules(r))))
                .weight(3, r -> inRole(r, role -> new DeleteComponent(role, component(r, role))))
                .weight(5, r -> {
                    String role = role(r);
                    return new Relabel(
                            role,
                            component(r, role),
                            r.pick(Labels.KYMA, Labels.MODULE, Labels.MANAGED_BY),
                            r.chance(0.3) ? null : r.pick(role + "1", role + "2", "ory", "x"));
                })
                .weight(5, r -> {
                    String role = role(r);
                    String field = r.pick("kyma", "module", "version");
                    String value = switch (field) {
                        case "kyma" -> r.pick(role + "1", role + "2");
                        case "module" -> r.pick(FuzzWorld.MODULES);
                        default -> r.pick("1.0.0", "2.1.0");
                    };
                    return new EditComponentSpec(role, component(r, role), field, value);
                })
                .weight(3, r -> inRole(r, role -> new DropOwners(role, component(r, role))))
                .weight(4, r -> {
                    String role = role(r);
                    return new AddOwner(
                            role,
                            component(r, role),
                            r.chance(0.25) ? null : role + r.between(1, 2),
                            r.chance(0.5),
                            r.chance(0.4));
                })
                .weight(5, r -> {
                    String role = role(r);
                    String kind = r.pick("kyma", "helmcomponent", "run");
                    String name = switch (kind) {
                        case "kyma" -> role + r.between(1, 2);
                        case "run" -> role + "r" + r.between(1, 2);
                        default -> component(r, role);
                    };
                    return new Finalize(role, kind, name, r.chance(0.6));
                })
                .weight(2, r -> {
                    String role = role(r);
                    String kyma = role + r.between(1, 2);
                    String module = r.pick(FuzzWorld.MODULES);
                    return new CreateStray(role, r.chance(0.5) ? kyma + "-" + module : role + "-stray", kyma, module);
                })
                .weight(2, r -> new Quota(role(r), r.chance(0.6)))
                .weight(1, r -> new DeleteNamespace(role(r)))
                .weight(
                        5,
                        r -> inRole(
                                r,
                                role -> new CreateRun(
                                        role,
                                        run(r, role),
                                        r.pick(200, 1500, 20_000),
                                        r.chance(0.3),
                                        r.chance(0.3) ? "2s" : null)))
                .weight(3, r -> inRole(r, role -> new DeleteRun(role, run(r, role))))
                .weight(
                        3,
                        r -> inRole(
                                r,
                                role -> new EditRunServer(
                                        role, run(r, role), r.pick("other", "other", "default", "link-local"))))
                .weight(3, r -> new JobAnswers(r.pick(ScriptedJobService.Shape.values()), r.between(1, 4)))
                .weight(3, r -> new Webhook(role(r), r.pick(FuzzWebhook.Mode.values())))
                .weight(2, r -> new ControlKyma(FuzzWorld.CONTROL + r.between(2, 4)))
                .weight(3, r -> {
                    ApiFault.Kind kind = r.pick(ApiFault.Kind.values());
                    return new ApiFault(kind, kind.shared() ? r.pick(20, 50) : 100, r.between(1, 3));
                });
    }

    private static String role(Seeded r) {
        return r.pick(FuzzWorld.ROLES);
    }

    /** Picks the role first, so that every name of the action is of that role's namespace. */
    private static TenantAction inRole(Seeded r, java.util.function.Function<String, TenantAction> make) {
        return make.apply(role(r));
    }

    private static String kyma(Seeded r, String role) {
        return role + r.between(1, 2);
    }

    private static List<String> modules(Seeded r) {
        List<String> modules = new ArrayList<>();
        for (String module : FuzzWorld.MODULES) {
            if (r.chance(0.6)) {
                modules.add(r.chance(0.2) ? module + "@1.0.0" : module);
            }
        }
        return modules.isEmpty() ? List.of("istio") : modules;
    }

    private static String component(Seeded r, String role) {
        return role + r.between(1, 2) + "-" + r.pick(FuzzWorld.MODULES);
    }

    private static String run(Seeded r, String role) {
        return role + "r" + r.between(1, 2);
    }
}
