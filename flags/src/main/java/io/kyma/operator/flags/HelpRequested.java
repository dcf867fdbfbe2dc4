package io.kyma.operator.flags;

/** Thrown for {@code --help} or {@code -h}: the caller prints the usage and ends with exit code 0. */
public final class HelpRequested extends RuntimeException {
    HelpRequested() {
        super("help", null, false, false);
    }
}
