package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.DocRegion;

/**
 * docs/testing.md's table of where {@code make test}'s time goes is generated from two recorded runs in
 * {@code docs/test-times}: the per-class times {@code hack/test-times.sh} read from the test reports, and each run's
 * commit and wall time. The runs under load ({@code hack/test-under-load.sh}) are kept in {@code loaded.csv}, each
 * with its per-class times. {@code -Dtesttimes.write=true} rewrites both tables.
 */
class TestTimesDocTest {
    private static final Path DIR = Crds.repositoryRoot().resolve("docs/test-times");
    private static final String BEGIN = "<!-- BEGIN generated test times -->\n";
    private static final String END = "<!-- END generated test times -->\n";
    private static final String LOADED_BEGIN = "<!-- BEGIN generated loaded runs -->\n";
    private static final String LOADED_END = "<!-- END generated loaded runs -->\n";
    /** Classes that took less than this in both runs are summed in one row. */
    private static final double SHOWN_FROM_S = 10;

    record ClassTime(String module, String name, int tests, double seconds) {}

    @Test
    void theTableIsTheRecordedRuns() throws IOException {
        DocRegion.check(Crds.repositoryRoot().resolve("docs/testing.md"), BEGIN, END, table(), "testtimes.write");
    }

    @Test
    void theRecordedRunsMeetTheTargetsTheDocsState() throws IOException {
        Properties runs = runs();
        assertThat(Double.parseDouble(runs.getProperty("after.wall_s")))
                .as("make test from a clean clone, in seconds")
                .isLessThanOrEqualTo(12 * 60);
        assertThat(Double.parseDouble(runs.getProperty("after.unit_s")))
                .as("make unit, in seconds")
                .isLessThanOrEqualTo(2 * 60);
        // no assertion lost on the way: at least as many tests ran after as before
        assertThat(total(read("after.csv"))).isGreaterThanOrEqualTo(total(read("before.csv")));
    }

    @Test
    void theLoadedRunsTableIsTheRecordedRuns() throws IOException {
        DocRegion.check(
                Crds.repositoryRoot().resolve("docs/testing.md"),
                LOADED_BEGIN,
                LOADED_END,
                loadedTable(loadedRuns()),
                "testtimes.write");
    }

    @Test
    void theLoadedRunsHadTheForksThePomSetsAndKeepTheirClassTimes() throws IOException {
        List<LoadedRun> runs = loadedRuns();
        if (!runs.isEmpty()) {
            assertThat(Files.readString(Crds.repositoryRoot().resolve("manager/pom.xml")))
                    .as("the manager's integration-test forks the last loaded run had")
                    .contains("<it.forks>" + runs.get(runs.size() - 1).forks() + "</it.forks>");
        }
        for (LoadedRun run : runs) {
            assertThat(DIR.resolve("loaded-" + run.started() + ".csv"))
                    .as("per-class times of the run at " + run.started())
                    .exists();
            assertThat(read("loaded-" + run.started() + ".csv")).isNotEmpty();
        }
    }

    /** One row of loaded.csv: a clean-clone {@code make test} with another process keeping one core busy. */
    record LoadedRun(String commit, String started, int wallSeconds, int exit, String forks, int cores, String load) {}

    static List<LoadedRun> loadedRuns() throws IOException {
        List<String> lines = Files.readAllLines(DIR.resolve("loaded.csv"));
        assertThat(lines.get(0)).isEqualTo("commit,started_utc,wall_s,exit,it_forks,cores,load");
        List<LoadedRun> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", 7);
            out.add(new LoadedRun(
                    f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), f[4], Integer.parseInt(f[5]), f[6]));
        }
        return out;
    }

    static String loadedTable(List<LoadedRun> runs) {
        StringBuilder out = new StringBuilder();
        out.append("| commit | started (UTC) | `make test` | result | test JVMs | cores | load |\n");
        out.append("|---|---|---:|---|---|---:|---|\n");
        for (LoadedRun run : runs) {
            out.append(String.format(
                    Locale.ROOT,
                    "| `%s` | %s | %d min %02d s | %s | `%s` | %d | %s |%n",
                    run.commit(),
                    run.started(),
                    run.wallSeconds() / 60,
                    run.wallSeconds() % 60,
                    run.exit() == 0 ? "green" : "red (exit " + run.exit() + ")",
                    run.forks(),
                    run.cores(),
                    run.load()));
        }
        return out.toString();
    }

    private static int total(List<ClassTime> times) {
        return times.stream().mapToInt(ClassTime::tests).sum();
    }

    static String table() throws IOException {
        Properties runs = runs();
        Map<String, ClassTime> before = byName(read("before.csv"));
        Map<String, ClassTime> after = byName(read("after.csv"));
        List<String> names = new ArrayList<>(before.keySet());
        after.keySet().stream().filter(n -> !before.containsKey(n)).forEach(names::add);
        names.sort(Comparator.comparingDouble((String n) -> -Math.max(seconds(before, n), seconds(after, n))));

        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "`make test` from a clean clone, control plane installed: **%s s** at `%s` (%s), **%s s** at `%s`"
                        + " (%s); `make unit` %s s. Per test class below, from the Surefire and Failsafe reports"
                        + " (`hack/test-times.sh`); the manager's integration tests ran in %s JVM(s) at once before and"
                        + " in %s after, so a column's sum can exceed its wall time. Classes under %.0f s in both runs"
                        + " are summed in one row.%n%n",
                runs.getProperty("before.wall_s"),
                runs.getProperty("before.commit"),
                runs.getProperty("before.what"),
                runs.getProperty("after.wall_s"),
                runs.getProperty("after.commit"),
                runs.getProperty("after.what"),
                runs.getProperty("after.unit_s"),
                runs.getProperty("before.it_forks"),
                runs.getProperty("after.it_forks"),
                SHOWN_FROM_S));
        out.append("| class | module | tests before | s before | tests after | s after |\n");
        out.append("|---|---|---:|---:|---:|---:|\n");
        double[] rest = new double[2];
        int[] restTests = new int[2];
        int restClasses = 0;
        for (String name : names) {
            ClassTime b = before.get(name);
            ClassTime a = after.get(name);
            if (Math.max(seconds(before, name), seconds(after, name)) < SHOWN_FROM_S) {
                rest[0] += seconds(before, name);
                rest[1] += seconds(after, name);
                restTests[0] += b == null ? 0 : b.tests();
                restTests[1] += a == null ? 0 : a.tests();
                restClasses++;
                continue;
            }
            out.append(String.format(
                    Locale.ROOT,
                    "| `%s` | %s | %s | %s | %s | %s |%n",
                    name,
                    (a != null ? a : b).module(),
                    b == null ? "–" : b.tests(),
                    b == null ? "–" : String.format(Locale.ROOT, "%.1f", b.seconds()),
                    a == null ? "–" : a.tests(),
                    a == null ? "–" : String.format(Locale.ROOT, "%.1f", a.seconds())));
        }
        out.append(String.format(
                Locale.ROOT,
                "| %d other classes | | %d | %.1f | %d | %.1f |%n",
                restClasses,
                restTests[0],
                rest[0],
                restTests[1],
                rest[1]));
        List<ClassTime> all = read("before.csv");
        List<ClassTime> allAfter = read("after.csv");
        out.append(String.format(
                Locale.ROOT,
                "| **all classes** | | **%d** | **%.1f** | **%d** | **%.1f** |%n",
                total(all),
                all.stream().mapToDouble(ClassTime::seconds).sum(),
                total(allAfter),
                allAfter.stream().mapToDouble(ClassTime::seconds).sum()));
        return out.toString();
    }

    private static double seconds(Map<String, ClassTime> times, String name) {
        ClassTime t = times.get(name);
        return t == null ? 0 : t.seconds();
    }

    /** Keyed by module and class: two modules may have a class of the same name. */
    private static Map<String, ClassTime> byName(List<ClassTime> times) {
        Map<String, ClassTime> out = new LinkedHashMap<>();
        for (ClassTime t : times) {
            String key = out.containsKey(t.name()) ? t.module() + "/" + t.name() : t.name();
            out.put(key, t);
        }
        return out;
    }

    static List<ClassTime> read(String file) throws IOException {
        List<ClassTime> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(DIR.resolve(file));
        assertThat(lines.get(0)).isEqualTo("module,class,tests,seconds");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            out.add(new ClassTime(f[0], f[1], Integer.parseInt(f[2]), Double.parseDouble(f[3])));
        }
        return out;
    }

    private static Properties runs() throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(DIR.resolve("runs.properties"))) {
            p.load(in);
        }
        return p;
    }
}
