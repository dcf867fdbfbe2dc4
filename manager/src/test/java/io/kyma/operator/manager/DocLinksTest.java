package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;

/**
 * The README and every page under {@code docs/} link only to files that exist and to headings those files have, and
 * every page is found by following links from the README.
 */
class DocLinksTest {
    private static final Path ROOT = Crds.repositoryRoot();
    /** A Markdown link or image: its target up to a space (a title) or the closing parenthesis. */
    private static final Pattern LINK =
            Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkResolvesToAFileAndAHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                problem(page, target)
                        .ifPresent(p -> broken.add(ROOT.relativize(page) + ": " + target + " (" + p + ")"));
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void everyPageUnderDocsIsReachableFromTheReadme() throws IOException {
        Set<Path> seen = new HashSet<>();
        Deque<Path> next = new ArrayDeque<>(List.of(ROOT.resolve("README.md")));
        while (!next.isEmpty()) {
            Path page = next.pop();
            if (!seen.add(page)) {
                continue;
            }
            for (String target : links(page)) {
                resolve(page, target).ifPresent(file -> reached(file).forEach(next::push));
            }
        }
        Set<String> unreachable = new TreeSet<>();
        for (Path page : pages()) {
            if (!seen.contains(page)) {
                unreachable.add(ROOT.relativize(page).toString());
            }
        }
        assertThat(unreachable).isEmpty();
    }

    @Test
    void headingsAreTurnedIntoAnchorsAsGitHubDoes() {
        assertThat(slug("Admission: a line per namespace, oldest Kyma first"))
                .isEqualTo("admission-a-line-per-namespace-oldest-kyma-first");
        assertThat(slug("`make run`")).isEqualTo("make-run");
        assertThat(slug("N = 4000 (`n4000-watch-closes`)")).isEqualTo("n--4000-n4000-watch-closes");
        assertThat(slug("Threat model: what a tenant can and cannot do"))
                .isEqualTo("threat-model-what-a-tenant-can-and-cannot-do");
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The link targets of a page outside fenced code blocks and inline code; a link's text may span lines. */
    private static List<String> links(Path page) {
        StringBuilder prose = new StringBuilder();
        boolean fenced = false;
        for (String line : read(page).split("\n")) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                prose.append('\n');
                continue;
            }
            prose.append(fenced ? "" : line.replaceAll("`[^`]*`", "``")).append('\n');
        }
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            targets.add(m.group(1));
        }
        return targets;
    }

    private Optional<String> problem(Path page, String target) {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            return Optional.empty(); // another site, mail: not followed
        }
        Optional<Path> file = resolve(page, target);
        if (file.isEmpty() || !Files.exists(file.get())) {
            return Optional.of("no such file");
        }
        if (!file.get().normalize().startsWith(ROOT)) {
            return Optional.of("outside the repository");
        }
        int hash = target.indexOf('#');
        if (hash < 0) {
            return Optional.empty();
        }
        Path anchored = pageOf(file.get());
        if (!anchored.toString().endsWith(".md")) {
            return Optional.empty(); // a line of a source file, say
        }
        String anchor = URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
        return anchorsOf(anchored).contains(anchor)
                ? Optional.empty()
                : Optional.of("no heading #" + anchor + " in " + ROOT.relativize(anchored));
    }

    /** The file a target names, relative to its page; the page itself for {@code #anchor}. */
    private static Optional<Path> resolve(Path page, String target) {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            return Optional.empty();
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        if (path.isEmpty()) {
            return Optional.of(page);
        }
        return Optional.of(page.getParent()
                .resolve(URLDecoder.decode(path, StandardCharsets.UTF_8))
                .normalize());
    }

    /**
     * The pages a link leads to: a page; a folder's README.md, which GitHub shows under the folder's listing; or, in a
     * folder without one, the pages of the listing.
     */
    private static List<Path> reached(Path file) {
        if (Files.isRegularFile(file)) {
            return file.toString().endsWith(".md") ? List.of(file) : List.of();
        }
        if (!Files.isDirectory(file)) {
            return List.of();
        }
        if (Files.isRegularFile(file.resolve("README.md"))) {
            return List.of(file.resolve("README.md"));
        }
        try (Stream<Path> listing = Files.list(file)) {
            return listing.filter(f -> f.toString().endsWith(".md")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A folder's page is its README.md, as GitHub shows it. */
    private static Path pageOf(Path file) {
        return Files.isDirectory(file) ? file.resolve("README.md") : file;
    }

    private Set<String> anchorsOf(Path page) {
        return anchors.computeIfAbsent(page, p -> {
            Set<String> found = new HashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean fenced = false;
            for (String line : read(p).split("\n")) {
                if (line.stripLeading().startsWith("```")) {
                    fenced = !fenced;
                }
                Matcher html = HTML_ANCHOR.matcher(line);
                while (html.find()) {
                    found.add(html.group(1));
                }
                Matcher heading = HEADING.matcher(line);
                if (!fenced && heading.matches()) {
                    String slug = slug(heading.group(1));
                    int n = seen.merge(slug, 1, Integer::sum);
                    found.add(n == 1 ? slug : slug + "-" + (n - 1));
                }
            }
            return found;
        });
    }

    /** GitHub's anchor of a heading: lower case, only letters, digits, spaces, '-' and '_', spaces as '-'. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }

    private static String read(Path page) {
        try {
            return Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
