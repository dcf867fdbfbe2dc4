package io.kyma.operator.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * A wait in a test whose deadline is a number of its own is a timing bound in disguise: the number is what a quiet
 * machine needed, and a busy one misses it. Every test of every module waits for its conditions with a
 * {@link HangCatcher} deadline, which only catches a hang; this finds the waits that do not. A process's grace period
 * before it is killed ({@code destroyForcibly} on the same or the next line) is no such wait: whatever it takes, the
 * process ends.
 */
class HangCatcherUseTest {
    /** The waits of Awaitility, processes, latches, futures and kubectl, with a deadline that is not a HangCatcher. */
    private static final List<Pattern> OWN_DEADLINES = List.of(
            Pattern.compile("\\.atMost\\((?!\\s*HangCatcher\\.)"),
            Pattern.compile("\\.waitFor\\(\\s*\\d"),
            Pattern.compile("\\.await\\(\\s*\\d"),
            Pattern.compile("\\.get\\(\\s*\\d+\\s*,\\s*TimeUnit"),
            Pattern.compile("--timeout=\\d"));

    @Test
    void everyWaitInTheTestsHasAHangCatcherDeadline() {
        assertThat(ownDeadlines(testSources()))
                .as("waits with a deadline of their own; use HangCatcher.STEP or HangCatcher.LOAD")
                .isEmpty();
    }

    @Test
    void aWaitWithADeadlineOfItsOwnIsFound() {
        List<String> lines = List.of(
                "await().atMost(Duration.ofSeconds(30)).until(ready);",
                "await().atMost(HangCatcher.STEP).until(ready);",
                "assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();",
                "assertThat(latch.await(5, TimeUnit.SECONDS)).isTrue();",
                "future.get(10, TimeUnit.SECONDS);",
                "kubectl(\"wait\", \"--timeout=60s\");",
                "process.waitFor(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS);",
                "if (!process.waitFor(10, TimeUnit.SECONDS)) {",
                "    process.destroyForcibly().waitFor();");
        assertThat(ownDeadlines(lines))
                .containsExactly(lines.get(0), lines.get(2), lines.get(3), lines.get(4), lines.get(5));
    }

    private static List<String> ownDeadlines(List<String> lines) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String next = i + 1 < lines.size() ? lines.get(i + 1) : "";
            if (line.contains("destroyForcibly") || next.contains("destroyForcibly")) {
                continue;
            }
            if (OWN_DEADLINES.stream().anyMatch(p -> p.matcher(line).find())) {
                found.add(line);
            }
        }
        return found;
    }

    /** Every line of the modules' tests and of test-support, named by file and line, this class's own left out. */
    private static List<String> testSources() {
        Path root = Crds.repositoryRoot();
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> root.relativize(f).toString().contains("/src/test/java/")
                            || root.relativize(f).startsWith("test-support/src/main/java"))
                    .filter(f -> !f.getFileName().toString().equals("HangCatcherUseTest.java"))
                    .toList()) {
                List<String> source = Files.readAllLines(file);
                for (int i = 0; i < source.size(); i++) {
                    lines.add(root.relativize(file) + ":" + (i + 1) + ": "
                            + source.get(i).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }
}
