package io.kyma.operator.run;

/**
 * Text a job service sent, made safe to show in a status or a log line, and made exactly as the API server will store
 * it, so that what the operator computes compares equal to what it reads back (else every poll would write again):
 * <ul>
 * <li>control characters (which could fake log lines or move a terminal's cursor), Unicode format characters
 * (bidirectional overrides and isolates, which can make text read other than it is; zero-width characters) and the
 * Unicode line and paragraph separators become spaces;</li>
 * <li>half of a surrogate pair, which no UTF-8 can carry, becomes U+FFFD as the API server's JSON decoder makes it;</li>
 * <li>a message's length is capped.</li>
 * </ul>
 */
final class ServerText {
    /** The most characters of a server's message shown in a status. */
    static final int MAX_MESSAGE = 200;

    private ServerText() {}

    /** One line of at most {@code max} characters, with "..." where it was cut. */
    static String line(String text, int max) {
        String line = shown(text, false);
        if (line.length() <= max) {
            return line;
        }
        // never keep part of a character
        return line.substring(0, Character.isLowSurrogate(line.charAt(max)) ? max - 1 : max) + "...";
    }

    /** A log: lines and tabs stay, everything else {@link #line} replaces is replaced the same way. */
    static String log(String text) {
        return shown(text, true);
    }

    private static String shown(String text, boolean multiline) {
        StringBuilder out = new StringBuilder(text == null ? 0 : text.length());
        for (int i = 0; text != null && i < text.length(); i++) {
            i = append(out, text, i, multiline);
        }
        return out.toString();
    }

    /** Appends the character at {@code i} (two for a surrogate pair) as it is shown; returns the last index used. */
    private static int append(StringBuilder out, String text, int i, boolean multiline) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
            int codePoint = Character.toCodePoint(c, text.charAt(i + 1));
            if (Character.getType(codePoint) == Character.FORMAT) {
                out.append(' ');
            } else {
                out.append(c).append(text.charAt(i + 1));
            }
            return i + 1;
        }
        if (Character.isSurrogate(c)) {
            out.append('\uFFFD'); // as the API server's JSON decoder makes it
        } else if (multiline && (c == '\n' || c == '\t')) {
            out.append(c);
        } else {
            out.append(hidden(c) ? ' ' : c);
        }
        return i;
    }

    private static boolean hidden(char c) {
        int type = Character.getType(c);
        return Character.isISOControl(c)
                || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }
}
