package io.kyma.operator.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** A file of a run kept under {@code docs/bench/}, which keeps its larger files gzipped as {@code <name>.gz}. */
final class KeptFile {
    private KeptFile() {}

    /** Whether the file is there, as it is or gzipped. */
    static boolean exists(Path file) {
        return Files.exists(file) || Files.exists(gzipped(file));
    }

    /** The file's text, read through gzip where only the gzipped file is there. */
    static String read(Path file) throws IOException {
        if (Files.exists(file)) {
            return Files.readString(file);
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gzipped(file)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Path gzipped(Path file) {
        return file.resolveSibling(file.getFileName() + ".gz");
    }
}
