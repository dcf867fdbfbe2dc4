package io.kyma.operator.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the operator's CPU went, from the execution samples of a JFR recording as {@code jfr print --events
 * jdk.ExecutionSample --stack-depth N} prints them: samples by thread, by method on top of the stack (self) and by
 * method anywhere in the stack (total), and the stacks folded root first for a flame graph.
 */
final class JfrProfile {
    private static final Pattern THREAD = Pattern.compile("sampledThread = \"([^\"]*)\"");
    /** A frame: the method, its parameter types, and a line number unless it is native. */
    private static final Pattern FRAME = Pattern.compile("^\\s+([\\w$.<>/\\[\\]]+)\\(.*\\)(\\s+line:.*)?$");

    private int samples;
    private final Map<String, Integer> byThread = new HashMap<>();
    private final Map<String, Integer> self = new HashMap<>();
    private final Map<String, Integer> total = new HashMap<>();
    private final Map<String, Integer> packages = new HashMap<>();
    private final Map<String, Integer> folded = new HashMap<>();

    /**
     * Renders a recording again: {@code java -cp bench/target/kyma-bench.jar io.kyma.operator.bench.JfrProfile
     * operator.jfr DIR} writes DIR/profile.txt and DIR/profile.folded, with the {@code jfr} tool of the running java.
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: JfrProfile RECORDING.jfr OUT_DIR");
            System.exit(2);
        }
        String jfr = Path.of(System.getProperty("java.home"), "bin", "jfr").toString();
        JfrProfile profile = read(jfr, Path.of(args[0]));
        Path out = Path.of(args[1]);
        Files.writeString(out.resolve("profile.txt"), profile.render(60));
        Files.writeString(out.resolve("profile.folded"), profile.folded(10));
    }

    /** The execution samples of a recording, read through {@code jfr print} as it prints them. */
    static JfrProfile read(String jfrTool, Path recording) throws IOException, InterruptedException {
        Process print = new ProcessBuilder(
                        jfrTool,
                        "print",
                        "--events",
                        "jdk.ExecutionSample",
                        "--stack-depth",
                        "64",
                        recording.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        JfrProfile profile;
        try (var lines = new BufferedReader(new InputStreamReader(print.getInputStream(), StandardCharsets.UTF_8))) {
            profile = parse(lines.lines().iterator());
        }
        print.waitFor();
        return profile;
    }

    static JfrProfile parse(String printed) {
        return parse(Arrays.asList(printed.split("\n")).iterator());
    }

    static JfrProfile parse(Iterator<String> lines) {
        JfrProfile profile = new JfrProfile();
        String thread = null;
        List<String> frames = new ArrayList<>();
        boolean inStack = false;
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("jdk.ExecutionSample")) {
                thread = null;
                frames.clear();
                inStack = false;
                continue;
            }
            Matcher t = THREAD.matcher(line);
            if (t.find()) {
                thread = threadGroup(t.group(1));
            } else if (line.contains("stackTrace = [")) {
                inStack = true;
            } else if (inStack && line.trim().equals("]")) {
                inStack = false;
                profile.add(thread == null ? "?" : thread, frames);
            } else if (inStack) {
                Matcher f = FRAME.matcher(line);
                if (f.matches()) {
                    frames.add(f.group(1));
                }
            }
        }
        return profile;
    }

    /** A thread's name with its numbers folded, so that a pool's threads count as one. */
    static String threadGroup(String name) {
        return name.replaceAll("\\d+", "#");
    }

    private void add(String thread, List<String> frames) {
        if (frames.isEmpty()) {
            return;
        }
        samples++;
        byThread.merge(thread, 1, Integer::sum);
        self.merge(frames.get(0), 1, Integer::sum);
        Set<String> distinct = new LinkedHashSet<>(frames);
        Set<String> distinctPackages = new LinkedHashSet<>();
        for (String frame : distinct) {
            total.merge(frame, 1, Integer::sum);
            distinctPackages.add(packageOf(frame));
        }
        for (String p : distinctPackages) {
            packages.merge(p, 1, Integer::sum);
        }
        StringBuilder stack = new StringBuilder(thread.replace(';', ','));
        for (int i = frames.size() - 1; i >= 0; i--) {
            stack.append(';').append(frames.get(i));
        }
        folded.merge(stack.toString(), 1, Integer::sum);
    }

    /** The package of a frame's class, at most four names deep: io.fabric8.kubernetes.client, jdk.internal.net. */
    static String packageOf(String frame) {
        String[] parts = frame.split("\\.");
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < Math.min(4, parts.length - 2); i++) {
            if (Character.isUpperCase(parts[i].charAt(0))) {
                break; // a class name: the package ended
            }
            p.append(i == 0 ? "" : ".").append(parts[i]);
        }
        return p.length() == 0 ? "(default)" : p.toString();
    }

    int samples() {
        return samples;
    }

    Map<String, Integer> self() {
        return self;
    }

    Map<String, Integer> total() {
        return total;
    }

    /** The top of each table: threads, self and total, with shares of all samples. */
    String render(int rows) {
        StringBuilder out = new StringBuilder();
        out.append("execution samples: ").append(samples).append("\n");
        table(out, "by thread (numbers folded)", byThread, rows);
        table(out, "by method on top of the stack (self)", self, rows);
        table(out, "by package anywhere in the stack (total)", packages, rows);
        table(out, "by method anywhere in the stack (total)", total, rows);
        return out.toString();
    }

    /**
     * One line per distinct stack with at least {@code minSamples} samples, root first, then its samples: the input
     * of a flame graph. The rarer stacks are summed on one line per thread pool, so the shares stay right.
     */
    String folded(int minSamples) {
        StringBuilder out = new StringBuilder();
        Map<String, Integer> rare = new TreeMap<>();
        folded.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (e.getValue() >= minSamples) {
                out.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
            } else {
                String thread = e.getKey().substring(0, e.getKey().indexOf(';'));
                rare.merge(thread + ";(stacks with fewer than " + minSamples + " samples)", e.getValue(), Integer::sum);
            }
        });
        rare.forEach(
                (stack, count) -> out.append(stack).append(' ').append(count).append('\n'));
        return out.toString();
    }

    private void table(StringBuilder out, String title, Map<String, Integer> counts, int rows) {
        out.append("\n## ").append(title).append("\n\n");
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(rows)
                .forEach(e -> out.append(String.format(
                        Locale.ROOT,
                        "%6.2f %%  %7d  %s%n",
                        100.0 * e.getValue() / Math.max(1, samples),
                        e.getValue(),
                        e.getKey())));
    }
}
