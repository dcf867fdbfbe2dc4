package io.kyma.operator.run;

import java.nio.charset.StandardCharsets;

/** The end of a job's log that fits a budget of bytes, cut at a line start so no line is shown half. */
public record LogTail(String text, boolean truncated) {
    /** Far below etcd's 1.5 MiB object limit, whatever else the Run holds. */
    public static final int MAX_BYTES = 32 * 1024;

    /**
     * The tail of a log that fits {@code maxBytes}. The job service may have left out the log's start already
     * ({@code cut}): then its first line may be a part of one, and is dropped.
     */
    public static LogTail of(String text, boolean cut, int maxBytes) {
        int newline = text.indexOf('\n');
        String log = cut && newline >= 0 && newline < text.length() - 1 ? text.substring(newline + 1) : text;
        byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes) {
            return new LogTail(log, cut);
        }
        int start = bytes.length - maxBytes;
        while (start < bytes.length && (bytes[start] & 0xC0) == 0x80) {
            start++; // never start inside a multi-byte character
        }
        int lineStart = start;
        while (lineStart < bytes.length && bytes[lineStart - 1] != '\n') {
            lineStart++;
        }
        // A last line longer than the budget is kept in part rather than dropped.
        int from = lineStart < bytes.length ? lineStart : start;
        return new LogTail(new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8), true);
    }
}
