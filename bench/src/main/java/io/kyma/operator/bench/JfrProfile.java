package io.kyma.operator.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
    private final Map<String, Integer> folded = new HashMap<>();

    static JfrProfile parse(String printed) {
        return parse(java.util.Arrays.asList(printed.split("\n")).iterator());
    }

    static JfrProfile parse(java.util.Iterator<String> lines) {
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
        for (String frame : distinct) {
            total.merge(frame, 1, Integer::sum);
        }
        StringBuilder stack = new StringBuilder(thread.replace(';', ','));
        for (int i = frames.size() - 1; i >= 0; i--) {
            stack.append(';').append(frames.get(i));
        }
        folded.merge(stack.toString(), 1, Integer::sum);
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
        table(out, "by method anywhere in the stack (total)", total, rows);
        return out.toString();
    }

    /** One line per distinct stack, root first, then its samples: the input of a flame graph. */
    String folded() {
        StringBuilder out = new StringBuilder();
        folded.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append(e.getKey()).append(' ').append(e.getValue()).append('\n'));
        return out.toString();
    }

    private void table(StringBuilder out, String title, Map<String, Integer> counts, int rows) {
        out.append("\n## ").append(title).append("\n\n");
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(rows)
                .forEach(e -> out.append(String.format(Locale.ROOT, "%6.2f %%  %7d  %s%n",
                        100.0 * e.getValue() / Math.max(1, samples), e.getValue(), e.getKey())));
    }
}
