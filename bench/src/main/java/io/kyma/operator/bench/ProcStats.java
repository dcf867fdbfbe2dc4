package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What /proc says of a process: resident memory and CPU time. */
final class ProcStats {
    private static final double CLOCK_TICKS = 100.0;

    private ProcStats() {}

    /** Resident set size in MiB, or 0 when the process is gone. */
    static double rssMiB(long pid) {
        return statusField(pid, "VmRSS:") / 1024.0;
    }

    /** Peak resident set size in MiB. */
    static double peakRssMiB(long pid) {
        return statusField(pid, "VmHWM:") / 1024.0;
    }

    /** User plus system CPU seconds. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / CLOCK_TICKS;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(
                            line.substring(field.length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return 0;
    }
}
