package io.kyma.operator.common.status;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The one classifier of failed API-server calls, like client-go's {@code IsForbidden}, {@code IsTimeout} and friends:
 * it walks the cause chain to the API server's last answer (the fabric8 exception carrying an HTTP code) and says what
 * the answer means for the next try ({@link FailureClass}), which reason a status gives and how it is described.
 * <ul>
 * <li>{@link FailureClass#SPEC}: 400 (bad request), 413 (too large) and 422 (invalid) to a write whose content the
 * object's spec decides, refused by the API server itself: the same request fails however often it is sent. Never for
 * the operator's own status write ({@link StatusPatch}): a status the operator computed that the API server refuses is
 * a defect of the operator or of the API server, retried like anything else, and logged as such. Never for a
 * deletion, which carries no spec, nor for a refusal by an admission webhook or policy, whose decision may change
 * without any edit.</li>
 * <li>{@link FailureClass#GONE}: 404 and 410.</li>
 * <li>{@link FailureClass#CONFLICT}: 409 on a stale resourceVersion. A 409 {@code AlreadyExists} is no such conflict:
 * the name is taken, by an object the cache has not seen yet or by someone else's; it is {@link FailureClass#RETRY}.</li>
 * <li>{@link FailureClass#RETRY}: everything else: 403 (quota exceeded, RBAC, an admission webhook's denial, a
 * terminating namespace), 401, 429, 5xx (a webhook that timed out), and calls without an answer (timeouts, I/O).</li>
 * </ul>
 */
public final class ApiFailure {
    /** The longest description of a failure a status gets, in characters. */
    public static final int MAX_DESCRIPTION = 400;
    /** The answers that say the request itself is wrong: bad request, too large, invalid. */
    private static final Set<Integer> MALFORMED = Set.of(400, 413, 422);
    /** How the API server words a refusal by admission: a webhook's denial or a failed call to it, or a policy's. */
    private static final Pattern ADMISSION =
            Pattern.compile("admission webhook \"|failed calling webhook|ValidatingAdmissionPolicy '");

    private ApiFailure() {}

    public static FailureClass classify(Throwable failure) {
        KubernetesClientException answer = answer(failure);
        if (answer == null) {
            return FailureClass.RETRY;
        }
        if (MALFORMED.contains(answer.getCode())) {
            boolean spec = !ownStatusWrite(failure) && !deletion(answer) && !admission(answer);
            return spec ? FailureClass.SPEC : FailureClass.RETRY;
        }
        return switch (answer.getCode()) {
            case 404, 410 -> FailureClass.GONE;
            case 409 -> alreadyExists(answer) ? FailureClass.RETRY : FailureClass.CONFLICT;
            default -> FailureClass.RETRY;
        };
    }

    /** Whether the refused call was a deletion (fabric8 names the verb first in its message). */
    private static boolean deletion(KubernetesClientException answer) {
        return String.valueOf(answer.getMessage()).startsWith("Failure executing: DELETE ");
    }

    /** Whether admission refused the call: a webhook (its answer, or a failed call to it) or a policy. */
    private static boolean admission(KubernetesClientException answer) {
        String said = answer.getStatus() == null ? null : answer.getStatus().getMessage();
        return said != null && ADMISSION.matcher(said).find();
    }

    /** Whether only an edit of the object's spec can help: {@link #classify} is {@link FailureClass#SPEC}. */
    public static boolean permanent(Throwable failure) {
        return classify(failure) == FailureClass.SPEC;
    }

    /**
     * Whether the API server refused the operator's own status write as malformed (400, 413, 422): not the tenant's
     * doing, so never a reason to wait for a spec edit, and worth an error in the log.
     */
    public static boolean refusedStatusWrite(Throwable failure) {
        KubernetesClientException answer = answer(failure);
        return answer != null && ownStatusWrite(failure) && MALFORMED.contains(answer.getCode());
    }

    /** The API server's CamelCase reason (Forbidden, Invalid, NotFound, ...), or one made from what happened. */
    public static String reason(KubernetesClientException e) {
        return reason((Throwable) e);
    }

    /**
     * The API server's CamelCase reason; {@code Http<code>} for an answer without one; {@code ApiServerTimeout} or
     * {@code ApiServerUnreachable} when no answer came; {@code ApiCallFailed} for anything else.
     */
    public static String reason(Throwable failure) {
        KubernetesClientException answer = answer(failure);
        if (answer != null) {
            String reason =
                    answer.getStatus() == null ? null : answer.getStatus().getReason();
            return reason == null || !reason.matches("[A-Za-z]{1,64}") ? "Http" + answer.getCode() : reason;
        }
        if (timedOut(failure)) {
            return "ApiServerTimeout";
        }
        return find(failure, IOException.class) != null ? "ApiServerUnreachable" : "ApiCallFailed";
    }

    /** What the API server said, or what happened when it said nothing, shortened for a status. */
    public static String describe(KubernetesClientException e) {
        return describe((Throwable) e);
    }

    /**
     * What the API server last answered, quoting its message (which names the webhook, the quota, the field), or,
     * when no answer came, what happened instead; never empty, at most {@link #MAX_DESCRIPTION} characters.
     */
    public static String describe(Throwable failure) {
        KubernetesClientException answer = answer(failure);
        String text;
        if (answer != null) {
            String said = answer.getStatus() == null ? null : answer.getStatus().getMessage();
            if (said == null || said.isBlank()) {
                said = answer.getStatus() != null && answer.getStatus().getReason() != null
                        ? answer.getStatus().getReason()
                        : answer.getMessage();
            }
            text = "the API server answered " + answer.getCode() + (ownStatusWrite(failure) ? " to a status write" : "")
                    + ": " + oneLine(said);
        } else if (timedOut(failure)) {
            text = "no answer from the API server in time: " + innermost(failure);
        } else if (find(failure, InterruptedException.class) != null) {
            text = "the call to the API server was interrupted before it answered (the reconcile ran past its timeout,"
                    + " or the operator is stopping)";
        } else if (find(failure, IOException.class) != null) {
            text = "no answer from the API server: " + innermost(failure);
        } else {
            text = "the call to the API server failed before it answered: " + innermost(failure);
        }
        return text.length() > MAX_DESCRIPTION ? text.substring(0, MAX_DESCRIPTION - 3) + "..." : text;
    }

    /** The outermost exception in the cause chain that carries the API server's answer (an HTTP code). */
    static KubernetesClientException answer(Throwable failure) {
        for (Throwable t : chain(failure)) {
            if (t instanceof KubernetesClientException e && e.getCode() >= 100 && e.getCode() <= 599) {
                return e;
            }
        }
        return null;
    }

    private static boolean ownStatusWrite(Throwable failure) {
        return find(failure, StatusPatch.Refused.class) != null;
    }

    private static boolean alreadyExists(KubernetesClientException answer) {
        return answer.getStatus() != null
                && "AlreadyExists".equals(answer.getStatus().getReason());
    }

    private static boolean timedOut(Throwable failure) {
        // HttpTimeoutException is an IOException, SocketTimeoutException an InterruptedIOException
        return find(failure, TimeoutException.class) != null
                || find(failure, InterruptedIOException.class) != null
                || chain(failure).stream()
                        .anyMatch(t -> t.getClass().getSimpleName().endsWith("TimeoutException"));
    }

    /** The root cause, as its class and message: what the client itself saw. */
    private static String innermost(Throwable failure) {
        var chain = chain(failure);
        if (chain.isEmpty()) {
            return "no failure was given";
        }
        Throwable root = chain.get(chain.size() - 1);
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + oneLine(message));
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> kind) {
        for (Throwable t : chain(failure)) {
            if (kind.isInstance(t)) {
                return kind.cast(t);
            }
        }
        return null;
    }

    /** The failure and its causes, outermost first, each once (a cause chain may loop). */
    private static List<Throwable> chain(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && seen.put(t, true) == null && chain.size() < 64; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    private static String oneLine(String text) {
        String line = text == null ? "" : text.replaceAll("\\s+", " ").trim();
        return line.isEmpty() ? "(no message)" : line;
    }
}
