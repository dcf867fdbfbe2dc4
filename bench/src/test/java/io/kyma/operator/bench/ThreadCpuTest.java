package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The operator's CPU by kind of thread, from the lines of /proc/PID/task/TID/stat. */
class ThreadCpuTest {

    @Test
    void readsTheNameAndTheUserAndSystemTicksEvenWithSpacesAndParenthesesInTheName() {
        String line = "4242 (C2 CompilerThre) S 4100 4100 1 0 -1 4194624 9 0 0 0 1234 56 0 0 20 0 30 0 1 0 0";
        assertThat(ThreadCpu.parse(line)).isEqualTo(new ThreadCpu.Reading("C2 CompilerThre", 1234, 56));
        String odd = "7 (a (b) c) R 1 1 1 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 1 0 0";
        assertThat(ThreadCpu.parse(odd)).isEqualTo(new ThreadCpu.Reading("a (b) c", 3, 4));
    }

    @Test
    void hotSpotsThreadsAreSortedByWhatTheyDo() {
        assertThat(ThreadCpu.kind("C2 CompilerThre")).isEqualTo(ThreadCpu.Kind.JIT);
        assertThat(ThreadCpu.kind("C1 CompilerThre")).isEqualTo(ThreadCpu.Kind.JIT);
        assertThat(ThreadCpu.kind("VM Thread")).isEqualTo(ThreadCpu.Kind.GC);
        assertThat(ThreadCpu.kind("GC Thread#0")).isEqualTo(ThreadCpu.Kind.GC);
        assertThat(ThreadCpu.kind("reconciler-12")).isEqualTo(ThreadCpu.Kind.REST);
        assertThat(ThreadCpu.kind("HttpClient-1-Se")).isEqualTo(ThreadCpu.Kind.REST);
    }

    @Test
    void theLoadsCpuIsWhatEachThreadAddedAndEveryThreadsSystemTimeIsTheKernels() {
        Map<Long, ThreadCpu.Reading> before = Map.of(
                1L, new ThreadCpu.Reading("reconciler-1", 100, 10),
                2L, new ThreadCpu.Reading("C2 CompilerThre", 500, 5),
                3L, new ThreadCpu.Reading("VM Thread", 50, 0));
        Map<Long, ThreadCpu.Reading> after = Map.of(
                1L, new ThreadCpu.Reading("reconciler-1", 300, 60),
                2L, new ThreadCpu.Reading("C2 CompilerThre", 900, 15),
                3L, new ThreadCpu.Reading("VM Thread", 80, 0),
                // started during the load: all of its time counts
                4L, new ThreadCpu.Reading("C2 CompilerThre", 100, 0));
        ThreadCpu.Parts parts = ThreadCpu.parts(before, after);
        assertThat(parts.kernel()).isCloseTo(0.6, within(1e-9));
        assertThat(parts.jit()).isCloseTo(5.0, within(1e-9));
        assertThat(parts.gc()).isCloseTo(0.3, within(1e-9));
        assertThat(parts.rest()).isCloseTo(2.0, within(1e-9));
        assertThat(parts.total()).isCloseTo(7.9, within(1e-9));
    }

    @Test
    void readsThisProcesssOwnThreads() throws InterruptedException {
        ThreadCpu cpu = new ThreadCpu(ProcessHandle.current().pid());
        cpu.start();
        // a third of a second of this thread's own CPU time, however long a busy machine takes to give it
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assertThat(threads.isCurrentThreadCpuTimeSupported()).isTrue();
        long spin = threads.getCurrentThreadCpuTime() + 300_000_000L;
        double sink = 0;
        while (threads.getCurrentThreadCpuTime() < spin) {
            for (int i = 0; i < 10_000; i++) {
                sink += Math.sqrt(sink + 1);
            }
        }
        ThreadCpu.Parts parts = cpu.stop();
        assertThat(sink).isPositive();
        assertThat(parts.total()).as("a third of a second spent spinning").isGreaterThan(0.1);
    }
}
