package io.kyma.operator.flags;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * How each program of the project reads its command line: {@code --help} prints the usage and the program ends with
 * exit code 0; a bad flag prints one line that names it, and the program ends with exit code 2, without a stack trace.
 */
public final class CommandLine {
    private CommandLine() {}

    /**
     * @param program the name a message starts with
     * @param usage the text of {@code --help}
     * @param read reads the flags into the program's settings
     * @return the settings; empty after {@code --help}, when the program should end
     */
    public static <T> Optional<T> read(String program, String usage, Supplier<T> read) {
        try {
            return Optional.of(read.get());
        } catch (HelpRequested help) {
            System.out.print(usage);
            return Optional.empty();
        } catch (FlagException e) {
            System.err.println(program + ": " + e.getMessage());
            System.exit(2);
            return Optional.empty();
        }
    }
}
