package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import io.kyma.operator.bench.micro.SerializationBench;

/**
 * {@code make bench-serialization}: the JSON microbenchmarks ({@link SerializationBench}) in a JVM with the
 * Deployment's flags, written to {@code OUT/jmh.csv} (time and bytes allocated per operation) with
 * {@code OUT/run.txt} naming the JVM and its flags.
 * <p>
 * Usage: {@code java -cp bench/target/kyma-bench.jar io.kyma.operator.bench.MicroBench --java FILE --out DIR}
 */
public final class MicroBench {
    private MicroBench() {
    }

    public static void main(String[] args) throws IOException, RunnerException {
        String java = null;
        Path out = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--java" -> java = args[i + 1];
                case "--out" -> out = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; usage: MicroBench --java FILE --out DIR");
            }
        }
        if (java == null || out == null || args.length % 2 != 0) {
            throw new IllegalArgumentException("usage: MicroBench --java FILE --out DIR");
        }
        Files.createDirectories(out);
        List<String> flags = new ArrayList<>(DeploymentJvm.read(BenchOptions.findRepository())
                .flagsFor(OperatorProcess.javaFeature(java)));
        new Runner(new OptionsBuilder()
                .include(SerializationBench.class.getName())
                .jvm(java)
                .jvmArgs(flags.toArray(String[]::new))
                .addProfiler(GCProfiler.class)
                .timeUnit(TimeUnit.MICROSECONDS)
                .result(out.resolve("jmh.csv").toString())
                .resultFormat(ResultFormatType.CSV)
                .build()).run();
        Files.writeString(out.resolve("run.txt"), "java: " + OperatorProcess.javaVersion(java) + "\nflags: "
                + String.join(" ", flags) + "\n");
    }
}
