package io.kyma.operator.manager.config;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;

/** Parsers of the manager's kinds of flag values. */
final class ValueParsers {
    private ValueParsers() {}

    /** A namespace's name (a DNS-1123 label), or empty. */
    static Function<String, Optional<String>> optionalNamespace() {
        return text -> text.isEmpty() ? Optional.empty() : Optional.of(namespace(text));
    }

    static String namespace(String text) {
        if (!text.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new IllegalArgumentException("'" + text + "' is not a namespace name (a DNS-1123 label)");
        }
        return text;
    }

    /** An object's name (a DNS-1123 subdomain). */
    static String objectName(String text) {
        if (!text.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
            throw new IllegalArgumentException("'" + text + "' is not a valid object name");
        }
        return text;
    }

    /** Bytes: a whole number, optionally with a Ki, Mi or Gi suffix, from 64Ki to 1Gi. */
    /** A duration in Go's notation, or {@code 0} (as Go's own parser takes it) for off. */
    static Duration durationOrOff(String text) {
        return "0".equals(text) ? Duration.ZERO : GoDuration.parse(text);
    }

    static long byteSize(String text) {
        var m = Pattern.compile("([0-9]{1,10})(Ki|Mi|Gi)?").matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size such as 4Mi, 512Ki or 1048576");
        }
        int shift = m.group(2) == null
                ? 0
                : switch (m.group(2)) {
                    case "Ki" -> 10;
                    case "Mi" -> 20;
                    default -> 30;
                };
        long value = Long.parseLong(m.group(1)) << shift;
        if (value < 64 << 10 || value > 1 << 30) {
            throw new IllegalArgumentException("must be from 64Ki to 1Gi, got " + text);
        }
        return value;
    }

    /** A duration of one flag that must not be shorter than another's. */
    static void notShorter(Flags.Values values, Flag<Duration> flag, Flag<Duration> lower) {
        if (values.get(flag).compareTo(values.get(lower)) < 0) {
            throw new FlagException(flag.flagName() + " must not be shorter than "
                    + lower.flagName() + ", got '" + values.text(flag).trim() + "' and '"
                    + values.text(lower).trim()
                    + "'");
        }
    }
}
