package io.kyma.operator.manager.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Labels;
import io.kyma.operator.api.Run;

/**
 * Three operator processes split the standard load as three shards: every Kyma, HelmComponent and Run is written by
 * one process only (the proxies record the writer of every write), components carry their Kyma's shard, every
 * component walks its states in order and every Run's job is started once.
 */
class ShardedReplicasIT {
    private static final ChaosLoad LOAD = ChaosLoad.full() ? ChaosLoad.standard(Duration.ofSeconds(1), 20)
            : ChaosLoad.standard(Duration.ofMillis(300), 5);
    private static final int SHARDS = 3;
    /** A write to one object: the resource, its name, and whether it is the status. */
    private static final Pattern OBJECT = Pattern.compile("/(kymas|helmcomponents|runs)/([^/?]+)(/status)?");

    @RegisterExtension
    static final ChaosEnvironment ENV = new ChaosEnvironment();

    @Test
    void eachObjectIsWrittenByTheProcessOfItsShardOnly() {
        List<Replica> replicas = new ArrayList<>();
        try (Trial trial = new Trial(ENV.admin(), "sharded", LOAD)) {
            for (int shard = 0; shard < SHARDS; shard++) {
                List<String> flags = new ArrayList<>(LOAD.operatorFlags(ENV.jobs().url()));
                flags.addAll(List.of("--shards", Integer.toString(SHARDS), "--shard-id", Integer.toString(shard)));
                replicas.add(Replica.start("shard-" + shard, trial.namespace(), flags));
            }
            trial.createLoad();
            trial.awaitSettled(Duration.ofMinutes(ChaosLoad.full() ? 10 : 4));

            Outcome outcome = trial.outcome(ENV.jobs(), replicas.stream().map(Replica::proxy).toList());
            assertThat(outcome.violations("sharded", LOAD)).isEmpty();

            Map<String, String> shardOf = new TreeMap<>();
            var admin = ENV.admin();
            admin.resources(Kyma.class).inNamespace(trial.namespace()).list().getItems().forEach(k ->
                    shardOf.put("kymas/" + k.getMetadata().getName(), k.getMetadata().getLabels().get(Labels.SHARD)));
            admin.resources(Run.class).inNamespace(trial.namespace()).list().getItems().forEach(r ->
                    shardOf.put("runs/" + r.getMetadata().getName(), r.getMetadata().getLabels().get(Labels.SHARD)));
            for (HelmComponent c : admin.resources(HelmComponent.class).inNamespace(trial.namespace()).list()
                    .getItems()) {
                String shard = c.getMetadata().getLabels().get(Labels.SHARD);
                assertThat(shard).as(c.getMetadata().getName() + " carries its Kyma's shard")
                        .isEqualTo(shardOf.get("kymas/" + c.getMetadata().getLabels().get(Labels.KYMA)));
                shardOf.put("helmcomponents/" + c.getMetadata().getName(), shard);
            }
            assertThat(shardOf.values()).as("every object has a shard").doesNotContainNull();
            assertThat(new TreeSet<>(shardOf.values())).as("the load spreads over the shards").hasSize(SHARDS);

            // Label patches on the object itself may come from any process (each labels what has no shard, all with
            // the same value); every other write to an object is its controller's.
            Map<String, Set<String>> writers = new TreeMap<>();
            for (Replica replica : replicas) {
                for (Writers.Write write : replica.writes()) {
                    Matcher m = OBJECT.matcher(write.what());
                    if (!m.find() || (write.what().startsWith("PATCH") && m.group(3) == null
                            && !m.group(1).equals("helmcomponents"))) {
                        continue;
                    }
                    writers.computeIfAbsent(m.group(1) + "/" + m.group(2), k -> new TreeSet<>())
                            .add(replica.name());
                }
            }
            assertThat(writers.keySet()).as("every object had its status written").containsAll(shardOf.keySet());
            writers.forEach((object, by) -> assertThat(by).as(object + " written by")
                    .containsExactly("shard-" + shardOf.get(object)));
        } finally {
            replicas.forEach(Replica::close);
        }
    }
}
