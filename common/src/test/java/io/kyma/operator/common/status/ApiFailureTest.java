package io.kyma.operator.common.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

class ApiFailureTest {
    private static final String WEBHOOK = "Internal error occurred: failed calling webhook \"validate.example.com\":"
            + " failed to call webhook: Post \"https://hook.ns.svc:443/validate?timeout=10s\": context deadline exceeded";
    private static final String QUOTA = "helmcomponents.operator.kyma-project.io \"a\" is forbidden: exceeded quota:"
            + " count, requested: count/helmcomponents.operator.kyma-project.io=1, used: 5, limited: 5";

    /** What the API server may put into its Status: reason and message, or no Status at all. */
    private record Answer(String reason, String message, boolean hasStatus) {}

    private static final List<Answer> ANSWERS = List.of(
            new Answer(null, null, false),
            new Answer(null, null, true),
            new Answer("", "", true),
            new Answer("Forbidden", QUOTA, true),
            new Answer("Forbidden", "admission webhook \"deny.example.com\" denied the request: no", true),
            new Answer(
                    "Invalid",
                    "helmcomponents \"a\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request:"
                            + " no",
                    true),
            new Answer("InternalError", WEBHOOK, true),
            new Answer(
                    "Invalid", "Kyma.operator.kyma-project.io \"k\" is invalid: spec.channel: Unsupported value", true),
            new Answer("AlreadyExists", "helmcomponents \"a\" already exists", true),
            new Answer(
                    "Conflict", "the object has been modified; please apply your changes to the latest version", true),
            new Answer("not camel case", "spaces\n\tand\r\nnew lines   everywhere", true),
            new Answer("Timeout", "x".repeat(5000), true),
            new Answer("Üńïçødé", "  ", true));

    /** Ways a call's failure reaches the classifier: as thrown, copied by the calling thread, wrapped, nested. */
    private static final List<UnaryOperator<Throwable>> WRAPPERS = List.of(
            t -> t,
            t -> t instanceof KubernetesClientException e ? e.copyAsCause() : t,
            t -> new RuntimeException("reconcile failed", t),
            t -> new CompletionException(new ExecutionException(t)),
            t -> new IllegalStateException("outer", new RuntimeException("middle", t)));

    /** The verbs of the calls that fail, as fabric8 names them in its message. */
    private static final List<String> VERBS = List.of("POST", "PUT", "PATCH", "DELETE");

    @Test
    void onlyAMalformedWriteOfTheSpecsContentWaitsForASpecEditWhateverTheReasonOrWrapping() {
        int cases = 0;
        for (int code = 100; code <= 599; code++) {
            for (Answer answer : ANSWERS) {
                for (UnaryOperator<Throwable> wrap : WRAPPERS) {
                    String verb = VERBS.get(cases % VERBS.size());
                    KubernetesClientException thrown = exception(code, answer, verb);
                    Throwable failure = wrap.apply(thrown);
                    String at = verb + " " + code + " " + answer;
                    // a deletion carries no spec; admission may change its mind without an edit
                    boolean admission = answer.message() != null
                            && (answer.message().contains("webhook")
                                    || answer.message().contains("AdmissionPolicy"));
                    FailureClass expected = switch (code) {
                        case 400, 413, 422 ->
                            verb.equals("DELETE") || admission ? FailureClass.RETRY : FailureClass.SPEC;
                        case 404, 410 -> FailureClass.GONE;
                        case 409 ->
                            "AlreadyExists".equals(answer.reason()) ? FailureClass.RETRY : FailureClass.CONFLICT;
                        default -> FailureClass.RETRY;
                    };
                    assertThat(ApiFailure.classify(failure)).as(at).isEqualTo(expected);
                    assertThat(ApiFailure.permanent(failure)).as(at).isEqualTo(expected == FailureClass.SPEC);
                    assertDescribed(failure, at);
                    assertThat(ApiFailure.describe(failure)).as(at).contains(" " + code);
                    if (answer.hasStatus()
                            && answer.message() != null
                            && !answer.message().isBlank()) {
                        String said = answer.message().replaceAll("\\s+", " ").trim();
                        assertThat(ApiFailure.describe(failure))
                                .as("quotes the server: %s", at)
                                .contains(said.substring(0, Math.min(said.length(), 300)));
                    }
                    if (answer.reason() != null && answer.reason().matches("[A-Za-z]+")) {
                        assertThat(ApiFailure.reason(failure)).as(at).isEqualTo(answer.reason());
                    } else {
                        assertThat(ApiFailure.reason(failure)).as(at).isEqualTo("Http" + code);
                    }
                    cases++;
                }
            }
        }
        assertThat(cases).isEqualTo(500 * ANSWERS.size() * WRAPPERS.size());
    }

    @Test
    void theOperatorsOwnStatusWriteIsNeverWaitingForASpecEdit() {
        for (int code = 100; code <= 599; code++) {
            for (Answer answer : ANSWERS) {
                for (UnaryOperator<Throwable> wrap : WRAPPERS) {
                    Throwable failure = wrap.apply(new StatusPatch.Refused(exception(code, answer)));
                    String at = code + " " + answer;
                    assertThat(ApiFailure.classify(failure)).as(at).isNotEqualTo(FailureClass.SPEC);
                    assertThat(ApiFailure.refusedStatusWrite(failure))
                            .as(at)
                            .isEqualTo(Set.of(400, 413, 422).contains(code));
                    assertThat(ApiFailure.describe(failure)).as(at).contains("to a status write");
                    assertDescribed(failure, at);
                }
            }
        }
        assertThat(ApiFailure.classify(new StatusPatch.Refused(exception(409, new Answer("Conflict", "stale", true)))))
                .as("a stale status write is still a conflict, retried on fresh data")
                .isEqualTo(FailureClass.CONFLICT);
    }

    @Test
    void aCallWithoutAnAnswerIsRetriedAndSaysPlainlyWhatHappened() {
        Map<Throwable, String> roots = new LinkedHashMap<>();
        roots.put(new HttpTimeoutException("request timed out"), "ApiServerTimeout");
        roots.put(new SocketTimeoutException("Read timed out"), "ApiServerTimeout");
        roots.put(new InterruptedIOException(), "ApiServerTimeout");
        roots.put(new TimeoutException(), "ApiServerTimeout");
        roots.put(new ConnectException("Connection refused"), "ApiServerUnreachable");
        roots.put(new IOException("connection reset"), "ApiServerUnreachable");
        roots.put(new InterruptedException(), "ApiCallFailed");
        roots.put(new IllegalStateException("no serializer"), "ApiCallFailed");
        for (Throwable root : roots.keySet()) {
            for (int code : new int[] {-1, 0, 600, 1000}) {
                List<Throwable> failures = new ArrayList<>(Arrays.asList(
                        root,
                        new KubernetesClientException("An error has occurred.", root),
                        withCause(new KubernetesClientException("An error has occurred.", code, null), root),
                        withCause(new KubernetesClientException("An error has occurred.", code, null), root)
                                .copyAsCause(),
                        new RuntimeException(new KubernetesClientException("An error has occurred.", root))));
                for (Throwable failure : failures) {
                    String at = code + " " + failure;
                    assertThat(ApiFailure.classify(failure)).as(at).isEqualTo(FailureClass.RETRY);
                    assertDescribed(failure, at);
                    assertThat(ApiFailure.describe(failure))
                            .as(at)
                            .doesNotContain("An error has occurred")
                            .doesNotContain("API server answered");
                    assertThat(ApiFailure.reason(failure)).as(at).isEqualTo(roots.get(root));
                }
            }
        }
        assertThat(ApiFailure.describe(
                        new KubernetesClientException("x", new HttpTimeoutException("request timed out"))))
                .isEqualTo("no answer from the API server in time: HttpTimeoutException: request timed out");
    }

    @Test
    void theServersLastAnswerIsFoundUnderAClientSideWrapping() {
        KubernetesClientException answered = exception(500, new Answer("InternalError", WEBHOOK, true));
        Throwable failure = new KubernetesClientException("An error has occurred.", answered);
        assertThat(ApiFailure.reason(failure)).isEqualTo("InternalError");
        assertThat(ApiFailure.describe(failure)).isEqualTo("the API server answered 500: " + WEBHOOK);
        assertThat(ApiFailure.classify(failure)).isEqualTo(FailureClass.RETRY);
    }

    @Test
    void aQuotaExceededIsRetriedNotParked() {
        assertThat(ApiFailure.classify(exception(403, new Answer("Forbidden", QUOTA, true))))
                .isEqualTo(FailureClass.RETRY);
    }

    /** As fabric8 throws a failure of a given code with a cause (its constructor for that needs the request). */
    private static KubernetesClientException withCause(KubernetesClientException e, Throwable cause) {
        return new KubernetesClientException(e.getMessage(), e.getCode(), e.getStatus()) {
            @Override
            public synchronized Throwable getCause() {
                return cause;
            }
        };
    }

    private static void assertDescribed(Throwable failure, String at) {
        String described = ApiFailure.describe(failure);
        assertThat(described).as(at).isNotBlank().hasSizeLessThanOrEqualTo(ApiFailure.MAX_DESCRIPTION);
        assertThat(described).as(at).doesNotContain("\n").doesNotContain("\t");
        assertThat(ApiFailure.reason(failure)).as(at).matches("[A-Za-z][A-Za-z0-9]{0,63}");
    }

    private static KubernetesClientException exception(int code, Answer answer) {
        return exception(code, answer, "POST");
    }

    private static KubernetesClientException exception(int code, Answer answer, String verb) {
        Status status = answer.hasStatus()
                ? new StatusBuilder()
                        .withCode(code)
                        .withReason(answer.reason())
                        .withMessage(answer.message())
                        .build()
                : null;
        return new KubernetesClientException(
                "Failure executing: " + verb + " at: https://api/x. Received status: " + code, code, status);
    }
}
