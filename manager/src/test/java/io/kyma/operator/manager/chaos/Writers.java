package io.kyma.operator.manager.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Who wrote when, judged: the successful writes of every replica incarnation (one process of one replica), ordered by
 * when they reached the proxy, fall into terms, runs of writes by one writer. With leader election working, no two
 * terms overlap (one writer's last write ended before the next one's first began) and no writer has two terms (a
 * replica that was followed by another never writes again in the same process).
 */
final class Writers {
    private Writers() {}

    /** One successful write of {@code writer} (an incarnation, "replica-2#3"), as the proxy saw it: "PATCH /apis/...". */
    record Write(String writer, Instant start, Instant end, String what) {
        Write(String writer, Instant start, Instant end) {
            this(writer, start, end, "");
        }
    }

    /** A run of writes by one writer. */
    record Term(String writer, Instant first, Instant last, int writes) {}

    /**
     * @param terms the runs of writes by one writer, in order
     * @param overlapping pairs of consecutive terms where the first ended after the second began, one line each
     * @param interleaved writers with more than one term
     * @param leastGap the shortest time from one writer's last write to the next writer's first (null with one term)
     * @param longestGap the longest such time (null with one term)
     */
    record Verdict(
            List<Term> terms,
            List<String> overlapping,
            List<String> interleaved,
            Duration leastGap,
            Duration longestGap) {
        boolean passed() {
            return overlapping.isEmpty() && interleaved.isEmpty();
        }

        int writes() {
            return terms.stream().mapToInt(Term::writes).sum();
        }
    }

    static Verdict judge(List<Write> writes) {
        List<Write> ordered = new ArrayList<>(writes);
        ordered.sort(Comparator.comparing(Write::start).thenComparing(Write::end));
        List<Term> terms = new ArrayList<>();
        List<Instant> lastEnds = new ArrayList<>();
        for (Write write : ordered) {
            int current = terms.size() - 1;
            if (current >= 0 && terms.get(current).writer().equals(write.writer())) {
                Term term = terms.get(current);
                terms.set(current, new Term(term.writer(), term.first(), write.start(), term.writes() + 1));
                lastEnds.set(current, later(lastEnds.get(current), write.end()));
            } else {
                terms.add(new Term(write.writer(), write.start(), write.start(), 1));
                lastEnds.add(write.end());
            }
        }
        List<String> overlapping = new ArrayList<>();
        List<String> interleaved = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Duration least = null;
        Duration longest = null;
        for (int i = 0; i < terms.size(); i++) {
            Term term = terms.get(i);
            if (!seen.add(term.writer()) && !interleaved.contains(term.writer())) {
                interleaved.add(term.writer());
            }
            if (i == 0) {
                continue;
            }
            Term before = terms.get(i - 1);
            Instant beforeEnded = lastEnds.get(i - 1);
            if (beforeEnded.isAfter(term.first())) {
                overlapping.add(before.writer() + " wrote until " + beforeEnded + ", " + term.writer() + " from "
                        + term.first());
            }
            Duration gap = Duration.between(beforeEnded, term.first());
            least = least == null || gap.compareTo(least) < 0 ? gap : least;
            longest = longest == null || gap.compareTo(longest) > 0 ? gap : longest;
        }
        return new Verdict(terms, overlapping, interleaved, least, longest);
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
