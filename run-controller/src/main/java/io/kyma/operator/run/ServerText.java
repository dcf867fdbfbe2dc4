package io.kyma.operator.run;

/**
 * Text a job service sent, made safe to show in a status or a log line: control characters (which could fake log
 * lines or move a terminal's cursor) become spaces, and the length is capped.
 */
final class ServerText {
    /** The most characters of a server's message shown in a status. */
    static final int MAX_MESSAGE = 200;

    private ServerText() {
    }

    /** One line of at most {@code max} characters, with "..." where it was cut. */
    static String line(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max + 3));
        for (int i = 0; i < text.length(); i++) {
            if (out.length() >= max) {
                if (Character.isLowSurrogate(text.charAt(i)) && out.length() > 0) {
                    out.setLength(out.length() - 1); // never leave half a character
                }
                return out.append("...").toString();
            }
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? ' ' : c);
        }
        return out.toString();
    }

    /** A log: lines and tabs stay, every other control character becomes a space. */
    static String log(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c == '\n' || c == '\t' || !Character.isISOControl(c) ? c : ' ');
        }
        return out.toString();
    }
}
