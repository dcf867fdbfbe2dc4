package io.kyma.operator.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A generated part of a documentation page, between a line {@code begin} and a line {@code end}: a test checks that it
 * is what the code or the data gives, and with {@code -D<writeProperty>=true} writes it instead.
 */
public final class DocRegion {
    private DocRegion() {}

    /**
     * @param begin the marker line before the region, with its newline
     * @param end the marker line after it, with its newline
     * @param writeProperty the system property that, when {@code true}, rewrites the region
     */
    public static void check(Path page, String begin, String end, String expected, String writeProperty) {
        try {
            String text = Files.readString(page);
            int from = text.indexOf(begin);
            int to = text.indexOf(end, Math.max(0, from));
            assertThat(from)
                    .as(page.getFileName() + " has the marker " + begin.strip())
                    .isGreaterThanOrEqualTo(0);
            assertThat(to)
                    .as(page.getFileName() + " has the marker " + end.strip())
                    .isGreaterThan(from);
            String updated = text.substring(0, from + begin.length()) + expected + text.substring(to);
            if (Boolean.getBoolean(writeProperty)) {
                Files.writeString(page, updated);
                return;
            }
            assertThat(text.substring(from + begin.length(), to))
                    .as(page.getFileName() + " is out of date; rerun the test with -D" + writeProperty + "=true")
                    .isEqualTo(expected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
