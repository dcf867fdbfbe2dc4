package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.HangCatcher;

/**
 * No container engine runs here, so the image is checked in parts: the Maven build lays out the runtime filesystem
 * the Dockerfile copies, and the Dockerfile's own entrypoint and JVM options start the manager from that layout.
 */
class ContainerLayoutIT {
    private static final Path LAYOUT = Path.of("target", "image");

    @Test
    void theEntrypointStartsTheManagerFromTheImageLayout() throws Exception {
        Dockerfile dockerfile = Dockerfile.read(Crds.repositoryRoot().resolve("Dockerfile"));
        assertThat(dockerfile.runtimeBase()).contains("jre");
        assertThat(dockerfile.user()).matches("[1-9][0-9]*(:[0-9]+)?");
        assertThat(dockerfile.copies()).contains("--from=build /src/manager/target/image/ /");
        assertThat(dockerfile.javaToolOptions()).contains("-XX:MaxRAMPercentage=", "-XX:+UseSerialGC");

        Result help = run(dockerfile, "--help");
        assertThat(help.exit()).as(help.output()).isZero();
        assertThat(help.output())
                .contains(
                        "Usage: java -jar kyma-operator.jar",
                        "--leader-elect",
                        "Picked up JAVA_TOOL_OPTIONS: " + javaToolOptionsHere(dockerfile));

        Result bad = run(dockerfile, "--transition-unit=soon");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.output()).contains("--transition-unit");

        Result version = run(dockerfile, "--version");
        assertThat(version.exit()).as(version.output()).isZero();
        assertThat(version.output())
                .as("the version and commit the build stamped")
                .containsPattern("kyma-operator \\d+\\.\\d+\\.\\d+ \\(commit [0-9a-f]{7}");
    }

    @Test
    void theImagesJvmOptionsAreThoseItsJreTakes() throws Exception {
        Dockerfile dockerfile = Dockerfile.read(Crds.repositoryRoot().resolve("Dockerfile"));
        Matcher tag = Pattern.compile("eclipse-temurin:(\\d+)-jre").matcher(dockerfile.runtimeBase());
        assertThat(tag.matches()).as(dockerfile.runtimeBase()).isTrue();
        Path java = imageJava(Integer.parseInt(tag.group(1)));
        assumeTrue(Files.isExecutable(java), "the image's Java " + tag.group(1) + " is not installed here: " + java);
        // every option, as the image's JVM reads JAVA_TOOL_OPTIONS, without leave to ignore any
        ProcessBuilder strict =
                new ProcessBuilder(java.toString(), "-XX:+PrintFlagsFinal", "-version").redirectErrorStream(true);
        strict.environment().put("JAVA_TOOL_OPTIONS", dockerfile.javaToolOptions());
        Process checked = strict.start();
        String output = new String(checked.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(checked.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .isTrue();
        assertThat(checked.exitValue()).as(output).isZero();
        assertThat(output)
                .containsPattern("UseSerialGC\\s+= true")
                .containsPattern("UseCompactObjectHeaders\\s+= true");
    }

    /** Where this machine kind keeps the JDK of the given version, if it has it. */
    private static Path imageJava(int feature) {
        String home = System.getenv("JAVA" + feature + "_HOME");
        return home != null
                ? Path.of(home, "bin", "java")
                : Path.of("/usr/lib/jvm/temurin-" + feature + "-jdk-amd64/bin/java");
    }

    private record Result(int exit, String output) {}

    /**
     * The image's JVM options as this JVM can take them: the image runs Java 25, and a JVM older than 24 does not know
     * compact object headers, so on one that flag alone is left out.
     */
    private static String javaToolOptionsHere(Dockerfile dockerfile) {
        String options = dockerfile.javaToolOptions();
        return Runtime.version().feature() >= 24
                ? options
                : options.replace("-XX:+UseCompactObjectHeaders", "")
                        .replaceAll("\\s+", " ")
                        .trim();
    }

    /** Runs the ENTRYPOINT with image paths mapped into the layout, in an empty working directory. */
    private static Result run(Dockerfile dockerfile, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        for (String part : dockerfile.entrypoint()) {
            command.add(part.startsWith("/") ? LAYOUT.toAbsolutePath() + part : part);
        }
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .directory(Files.createTempDirectory("workdir").toFile());
        builder.environment().put("JAVA_TOOL_OPTIONS", javaToolOptionsHere(dockerfile));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .isTrue();
        return new Result(process.exitValue(), output);
    }

    /** The few facts of the Dockerfile's last stage that matter here. */
    record Dockerfile(
            String runtimeBase, String user, List<String> copies, String javaToolOptions, List<String> entrypoint) {
        static Dockerfile read(Path file) throws IOException {
            String text = Files.readString(file);
            String lastStage = text.substring(text.lastIndexOf("\nFROM "));
            Matcher from = Pattern.compile("\nFROM (\\S+)").matcher(lastStage);
            Matcher user = Pattern.compile("\nUSER (\\S+)").matcher(lastStage);
            Matcher env =
                    Pattern.compile("\nENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"").matcher(lastStage);
            Matcher entry = Pattern.compile("\nENTRYPOINT (\\[.*\\])").matcher(lastStage);
            List<String> copies = new ArrayList<>();
            Matcher copy = Pattern.compile("\nCOPY (.*)").matcher(lastStage);
            while (copy.find()) {
                copies.add(copy.group(1).trim());
            }
            assertThat(from.find() && user.find() && env.find() && entry.find())
                    .as("Dockerfile runtime stage")
                    .isTrue();
            List<String> entrypoint = List.of(new ObjectMapper().readValue(entry.group(1), String[].class));
            return new Dockerfile(from.group(1), user.group(1), copies, env.group(1), entrypoint);
        }
    }
}
