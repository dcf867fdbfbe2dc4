package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import io.kyma.operator.bench.micro.SerializationBench;
import io.kyma.operator.flags.CommandLine;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.Parsers;

/**
 * {@code make bench-serialization}: the JSON microbenchmarks ({@link SerializationBench}) in a JVM with the
 * Deployment's flags, written to {@code OUT/jmh.csv} (time and bytes allocated per operation) with
 * {@code OUT/run.txt} naming the JVM and its flags. {@code --quick} runs each benchmark once, briefly: a check that
 * they run, not a measurement.
 * <p>
 * Usage: {@code java -cp bench/target/kyma-bench.jar io.kyma.operator.bench.MicroBench --java FILE --out DIR
 * [--quick]}
 */
public final class MicroBench {
    private static final Flag<String> JAVA =
            Flag.of("java", "java", "The java that runs the benchmarks, with the Deployment's flags.", Parsers.text());
    private static final Flag<Path> OUT =
            Flag.of("out", "target/bench/serialization", "Where jmh.csv and run.txt go.", Path::of);
    private static final Flag<Boolean> QUICK =
            Flag.ofSwitch("quick", "false", "Run each benchmark once, briefly: a check that they run.");
    private static final Flags FLAGS = Flags.of(List.of(JAVA, OUT, QUICK));

    private MicroBench() {}

    public static void main(String[] args) throws IOException, RunnerException {
        Optional<Flags.Values> read = CommandLine.read(
                "bench-serialization",
                FLAGS.usage("Usage: java -cp bench/target/kyma-bench.jar " + MicroBench.class.getName()),
                () -> FLAGS.parse(args, Map.of()));
        if (read.isEmpty()) {
            return;
        }
        Flags.Values values = read.get();
        String java = values.get(JAVA);
        Path out = values.get(OUT);
        boolean quick = values.get(QUICK);
        Files.createDirectories(out);
        List<String> flags = new ArrayList<>(
                DeploymentJvm.read(BenchOptions.findRepository()).flagsFor(OperatorProcess.javaFeature(java)));
        var options = new OptionsBuilder();
        if (quick) {
            // a check that every benchmark runs and is recorded, not a measurement
            options.warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.milliseconds(200));
        }
        new Runner(options.include(SerializationBench.class.getName())
                        .jvm(java)
                        .jvmArgs(flags.toArray(String[]::new))
                        .addProfiler(GCProfiler.class)
                        .timeUnit(TimeUnit.MICROSECONDS)
                        .result(out.resolve("jmh.csv").toString())
                        .resultFormat(ResultFormatType.CSV)
                        .build())
                .run();
        Files.writeString(
                out.resolve("run.txt"),
                "java: " + OperatorProcess.javaVersion(java) + "\nflags: " + String.join(" ", flags) + "\n");
    }
}
