package io.kyma.operator.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

/**
 * The one typed model of a job service's answer body. Only the top-level fields of the job API are read, each at its
 * own depth and of its own type ({@code error} may be text or an object with a text {@code message}); every other
 * value is skipped unchecked, as a stream, whatever it repeats, up to {@link #MAX_DEPTH} levels deep. The body is decoded leniently (bytes that are
 * not UTF-8 become U+FFFD; a byte order mark and white space before the JSON are passed over). A body that is no JSON
 * object, or names none of {@code id}, {@code state} and {@code error}, is {@code null}: no job service spoke. A
 * job-API answer with a field of the wrong type, a field of the job API given twice, or JSON that breaks off is
 * {@link #malformed}, and so is any answer nested deeper than the bound.
 *
 * @param malformed what makes the answer unusable, or null
 */
record JobAnswer(String id, String state, String log, boolean logTruncated, String error, String malformed) {
    /**
     * Job ids the operator calls: a letter or digit, then letters, digits and {@code . _ : -}; so never {@code .} or
     * {@code ..}, and never a character a path would have to encode.
     */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private static final Set<String> FIELDS = Set.of("id", "state", "log", "logTruncated", "error");

    /**
     * How deep an answer may nest, anywhere: far beyond any job API, and a bound on the parser's memory, some 50 bytes
     * a level while it reads (an answer of the response limit could otherwise nest a hundred thousand levels deep).
     */
    static final int MAX_DEPTH = 1000;

    /**
     * No limits of Jackson's own but the depth (the response limit bounds the rest), and no field names kept from one
     * answer to the next (Jackson would keep a service's made-up names, of any length, for as long as it runs).
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
            .build();

    /** Whether {@code id} is one the operator calls; see {@link #ID}. */
    static boolean validId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** The answer in {@code body}, or null if it is not the job API's. */
    static JobAnswer read(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).replaceFirst("^[\\s\uFEFF]+", "");
        Map<String, String> fields = new HashMap<>(); // each field of the job API given: its text, or null
        String wrong = null;
        try (JsonParser in = JSON.createParser(text)) {
            if (in.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (String field; (field = in.nextFieldName()) != null; ) {
                JsonToken value = in.nextToken();
                if (FIELDS.contains(field) && fields.containsKey(field)) {
                    return new JobAnswer(null, null, null, false, null, "an answer with a field given twice");
                }
                if (field.equals("error") && value == JsonToken.START_OBJECT) {
                    fields.put(field, message(in));
                } else if (FIELDS.contains(field)) {
                    boolean flag = field.equals("logTruncated"); // true or false; the others text (error may be none)
                    fields.put(
                            field,
                            value == (flag ? JsonToken.VALUE_TRUE : JsonToken.VALUE_STRING) ? in.getText() : null);
                    if (value != JsonToken.VALUE_NULL
                            && !field.equals("error")
                            && (flag ? !value.isBoolean() : value != JsonToken.VALUE_STRING)) {
                        wrong = "an answer whose " + field + (flag ? " is not true or false" : " is not text");
                    }
                }
                in.skipChildren(); // the rest of a value not read, iteratively: no depth reaches the stack
            }
        } catch (StreamConstraintsException e) {
            return new JobAnswer(
                    null, null, null, false, null, "an answer nested deeper than " + MAX_DEPTH + " levels");
        } catch (IOException e) {
            wrong = "an answer whose JSON breaks off or is not JSON";
        }
        if (!(fields.containsKey("id") || fields.containsKey("state") || fields.containsKey("error"))) {
            return null;
        }
        boolean truncated = fields.get("logTruncated") != null;
        return new JobAnswer(
                fields.get("id"), fields.get("state"), fields.get("log"), truncated, fields.get("error"), wrong);
    }

    /** The text {@code message} of the object the parser is at the start of, read to the object's end; or null. */
    private static String message(JsonParser in) throws IOException {
        String message = null;
        for (String field; (field = in.nextFieldName()) != null; in.skipChildren()) {
            String text = in.nextTextValue(); // null for a value that is not text
            message = field.equals("message") && text != null ? text : message;
        }
        return message;
    }
}
