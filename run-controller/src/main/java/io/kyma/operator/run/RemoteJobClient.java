package io.kyma.operator.run;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.kyma.operator.common.DaemonThreads;

/**
 * The remote job service's API on the JDK's HTTP client: one client for all Runs, so connections are reused, and no
 * call blocks its caller. The service is not trusted: every exchange, body included, ends within the request timeout;
 * every answer is read through a size limit and parsed as a stream, keeping only the fields the job API defines;
 * what it says reaches a status only checked, capped and normalised; and the status says whether the service was
 * unreachable or answered badly, never which network error it was, so a Run cannot be used to probe the network.
 */
public final class RemoteJobClient implements JobService, AutoCloseable {
    /**
     * What a Run's status says of a server that did not answer as a job service: one message whatever the cause, so
     * that a Run cannot tell a closed port from an open one, or a web page from a timeout.
     */
    public static final String UNREACHABLE = "no answer from a job service: the server is unreachable, did not answer"
            + " in time, or is not a job service";

    private static final Logger LOG = LoggerFactory.getLogger(RemoteJobClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory STREAMS = JSON.getFactory();
    /** Job ids as the reference service makes them, and then some; anything else is not the job API. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private static final int MAX_STATE = 64;

    /**
     * The most of an answer's status line and headers the JDK's client reads ({@code jdk.http.maxHeaderSize}, which
     * {@code Main} sets to this unless it was set); a larger head fails the call.
     */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    /**
     * Why a call to a name fails when this JVM's HTTP client will not send a Host header of the operator's own
     * ({@code jdk.httpclient.allowRestrictedHeaders}, which {@code Main} sets): it would have to connect by the name,
     * which may resolve elsewhere than the address checked.
     */
    static final String NOT_PINNED = "the operator cannot call a job service by name in this JVM: start it with"
            + " -Djdk.httpclient.allowRestrictedHeaders=host";

    /** Look-up threads when the caller does not say how many calls may be in flight. */
    static final int DEFAULT_LOOKUP_THREADS = 8;
    /** Whether a request may carry its own Host header, so that a connection can go to the address checked. */
    static final boolean PINNED = hostHeaderAllowed();

    private final ServerAddresses addresses;
    private final ExecutorService lookups;
    /** Plain HTTP, HTTPS to an address, and HTTPS to the administrator's default server (by its name). */
    private final HttpClient http;
    /** HTTPS to a name, connected to the address checked. */
    private final TlsClients tls;
    /** Hands answers on and parses them, for every client. */
    private final ExecutorService answers;

    private final Duration requestTimeout;
    private final long responseLimit;
    /** Ends exchanges at the request timeout, however slowly a server sends its answer. */
    private final ScheduledExecutorService alarms;

    /**
     * @param requestTimeout the longest a whole exchange may take, from connecting to the last byte of the answer
     * @param responseLimit the largest answer read, in bytes
     */
    public RemoteJobClient(Duration connectTimeout, Duration requestTimeout, long responseLimit) {
        this(
                connectTimeout,
                requestTimeout,
                responseLimit,
                new ServerAddresses(ServerAllowList.allowAll(), Optional.empty(), Set.of()));
    }

    /** @param addresses where calls may connect, checked on each call's resolved addresses */
    public RemoteJobClient(
            Duration connectTimeout, Duration requestTimeout, long responseLimit, ServerAddresses addresses) {
        this(connectTimeout, requestTimeout, responseLimit, addresses, DEFAULT_LOOKUP_THREADS);
    }

    /**
     * @param lookupThreads threads for name look-ups, which block: as many as calls may be in flight, so that no
     *        call's look-up waits behind another's (they end when idle)
     */
    public RemoteJobClient(
            Duration connectTimeout,
            Duration requestTimeout,
            long responseLimit,
            ServerAddresses addresses,
            int lookupThreads) {
        this(connectTimeout, requestTimeout, responseLimit, addresses, lookupThreads, defaultTls(), timeoutAlarms());
    }

    /**
     * @param tls what HTTPS calls trust and present
     * @param alarms ends each exchange at the request timeout ({@link #timeoutAlarms()}; tests set them off themselves)
     */
    RemoteJobClient(
            Duration connectTimeout,
            Duration requestTimeout,
            long responseLimit,
            ServerAddresses addresses,
            int lookupThreads,
            SSLContext tls,
            ScheduledExecutorService alarms) {
        this.addresses = addresses;
        ThreadPoolExecutor lookups = new ThreadPoolExecutor(
                lookupThreads,
                lookupThreads,
                30,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                DaemonThreads.numbered("job-service-lookup-"));
        lookups.allowCoreThreadTimeOut(true);
        this.lookups = lookups;
        // Two threads hand answers on and parse them, for every client; a client's selector thread does the I/O.
        ExecutorService answers = Executors.newFixedThreadPool(2, DaemonThreads.numbered("job-service-client-"));
        this.answers = answers;
        Supplier<HttpClient.Builder> builder = () -> HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(answers);
        this.http = builder.get().build();
        this.tls = new TlsClients(tls, builder, lookupThreads);
        this.requestTimeout = requestTimeout;
        this.responseLimit = responseLimit;
        this.alarms = alarms;
    }

    static ScheduledExecutorService timeoutAlarms() {
        ScheduledThreadPoolExecutor timer =
                new ScheduledThreadPoolExecutor(1, DaemonThreads.named("job-service-timeouts"));
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    private CompletableFuture<Optional<InetAddress>> checkedNow(JobServerUrl server) {
        try {
            return CompletableFuture.completedFuture(addresses.check(server));
        } catch (RemoteJobException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    public long responseLimit() {
        return responseLimit;
    }

    @Override
    public CompletableFuture<JobService.Start> start(
            JobServerUrl server, String name, Map<String, String> params, String idempotencyKey) {
        byte[] body = StartBody.encode(name, params, idempotencyKey);
        return call(
                        server,
                        at -> HttpRequest.newBuilder(at.jobs())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                        true)
                .thenApply(reply -> checked(() -> new JobService.Start(id(reply.answer()), reply.server())));
    }

    /**
     * A job as the service describes it, its log limited to the last {@code tailBytes} bytes. Services that do not
     * know the {@code tailBytes} parameter send the whole log, which the response limit bounds.
     */
    @Override
    public CompletableFuture<RemoteJob> get(JobServerUrl server, String id, int tailBytes) {
        return call(
                        server,
                        at -> HttpRequest.newBuilder(at.job(id, "tailBytes=" + tailBytes))
                                .GET(),
                        false)
                .thenApply(Reply::answer)
                .thenApply(answer -> checked(() -> {
                    if (answer.state() == null || answer.state().isBlank()) {
                        throw badAnswer("an answer without the job's state");
                    }
                    // Kept until a reconcile takes it: cut here, on the call's thread, to the tail the status shows.
                    LogTail tail =
                            LogTail.of(ServerText.log(answer.log() == null ? "" : answer.log()), answer.logTruncated());
                    return new RemoteJob(
                            id(answer), ServerText.line(answer.state(), MAX_STATE), tail.text(), tail.truncated());
                }));
    }

    @Override
    public CompletableFuture<Void> cancel(JobServerUrl server, String id) {
        return call(server, at -> HttpRequest.newBuilder(at.job(id, "")).DELETE(), false)
                .handle((answer, failure) -> {
                    if (failure != null && RemoteJobException.of(failure).kind() != RemoteJobException.Kind.NOT_FOUND) {
                        throw new CompletionException(RemoteJobException.of(failure));
                    }
                    return null;
                });
    }

    @Override
    public void close() {
        tls.close();
        TlsClients.shutDown(http);
        alarms.shutdownNow();
        lookups.shutdownNow();
        answers.shutdownNow();
    }

    /**
     * An answer and the server it came from: pinned to the address the call connected to, when it connected to an
     * address it checked for a name (any name but the default server's, which is called by its name).
     */
    private record Reply(Answer answer, JobServerUrl server) {}

    /** The fields of the job API in an answer; the rest of it is skipped unread. */
    record Answer(String id, String state, String log, boolean logTruncated, String error) {
        /** Whether the answer has a field only the job API defines, as text. */
        boolean spokeJobApi() {
            return id != null || state != null || error != null;
        }
    }

    /**
     * One exchange: the server's name looked up and its addresses checked (off the caller's thread), the request sent
     * to the address checked, the answer read and parsed; all of it within the request timeout.
     */
    private CompletableFuture<Reply> call(
            JobServerUrl server, Function<JobServerUrl, HttpRequest.Builder> request, boolean starting) {
        CompletableFuture<Reply> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<?>> exchange = new AtomicReference<>();
        ScheduledFuture<?> alarm = alarms.schedule(
                () -> {
                    if (result.completeExceptionally(
                            new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, UNREACHABLE, null))) {
                        CompletableFuture<?> sent = exchange.get();
                        if (sent != null) {
                            sent.cancel(true);
                        }
                    }
                },
                requestTimeout.toNanos(),
                TimeUnit.NANOSECONDS);
        // Only a name waits for a name server, on the look-up threads: the default server and addresses are checked
        // at once, so that slow look-ups of one tenant's names do not hold them up. A look-up whose call has ended
        // (its time ran out while it waited for a thread) is dropped, not made: slow names must not fill the queue
        // with look-ups nobody waits for, ahead of the names of other calls.
        boolean looksUp = addresses.looksUp(server);
        CompletableFuture<Optional<InetAddress>> checkedAddress = looksUp
                ? CompletableFuture.supplyAsync(
                        () -> {
                            if (result.isDone()) {
                                throw new CancellationException("the call ended before its look-up began");
                            }
                            return checked(() -> addresses.check(server));
                        },
                        lookups)
                : checkedNow(server);
        checkedAddress
                .thenCompose(address -> {
                    // The request goes to the address checked, the name in its Host header (and, over HTTPS, as the
                    // server name its certificate is checked against): the JDK's client is given no name to look up
                    // again. Without a Host header of its own that cannot be done, and a checked name is not called.
                    boolean name = server.hostIsName();
                    if (address.isPresent() && name && !PINNED) {
                        throw new CompletionException(
                                new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, NOT_PINNED, null));
                    }
                    boolean toAddress = address.isPresent();
                    HttpRequest built = (toAddress
                                    ? request.apply(server.at(address.get())).header("Host", server.authority())
                                    : request.apply(server))
                            .timeout(requestTimeout)
                            .build();
                    JobServerUrl connected = toAddress && name ? server.pinnedTo(address.get()) : server;
                    CompletableFuture<HttpResponse<byte[]>> sent = toAddress && name && !server.plainHttp()
                            ? tls.send(server.host(), built, BoundedBody.handler(responseLimit))
                            : http.sendAsync(built, BoundedBody.handler(responseLimit));
                    exchange.set(sent);
                    if (result.isDone()) {
                        sent.cancel(true);
                    }
                    return sent.thenApply(response -> checked(() -> new Reply(answer(response, starting), connected)));
                })
                .whenComplete((answer, failure) -> {
                    alarm.cancel(false);
                    if (failure == null) {
                        result.complete(answer);
                    } else {
                        result.completeExceptionally(failed(server, failure));
                    }
                });
        return result;
    }

    private static SSLContext defaultTls() {
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no TLS in this JVM", e);
        }
    }

    private static boolean hostHeaderAllowed() {
        try {
            HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).header("Host", "probe");
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private Answer answer(HttpResponse<byte[]> response, boolean starting) throws RemoteJobException {
        int code = response.statusCode();
        Answer answer = parseQuietly(response.body());
        // Only a server that speaks the job API is quoted; any other answer reads as no job service at all.
        if (answer == null || !answer.spokeJobApi()) {
            throw new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, UNREACHABLE, null);
        }
        String text = answer.error() == null ? "" : ": " + ServerText.line(answer.error(), ServerText.MAX_MESSAGE);
        if (starting && code == 409 && answer.id() != null) {
            return answer; // the job an earlier try of the same start made, as idempotent services name it
        }
        if (code >= 500 || busy(code, starting)) {
            throw new RemoteJobException(
                    RemoteJobException.Kind.SERVER_ERROR, "the job service answered HTTP " + code + text, null);
        }
        if (code == 404 && !starting) {
            throw new RemoteJobException(
                    RemoteJobException.Kind.NOT_FOUND, "the job service does not know the job (HTTP 404)" + text, null);
        }
        if (code >= 400) {
            throw new RemoteJobException(
                    starting ? RemoteJobException.Kind.REJECTED : RemoteJobException.Kind.BAD_ANSWER,
                    "the job service refused the " + (starting ? "job" : "request") + " (HTTP " + code + ")" + text,
                    null);
        }
        if (code >= 300 || code < 200) {
            throw new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, UNREACHABLE, null);
        }
        return answer;
    }

    /**
     * Answers that say "not now" rather than "no": the service timed out waiting (408), is busy or throttling (429),
     * would not take a request it may replay (425), or, to a start, is still handling an earlier try of the same
     * start (409, as idempotent services answer a retry while the first is in progress). Tried again with backoff,
     * as a 5xx is: failing the Run could leave its job running with nothing to follow it.
     */
    static boolean busy(int code, boolean starting) {
        return code == 408 || code == 425 || code == 429 || starting && code == 409;
    }

    private static Answer parseQuietly(byte[] body) {
        try {
            return parse(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** Reads an answer as a stream of tokens: the fields it knows as text, nothing else kept; null if no object. */
    static Answer parse(byte[] body) throws IOException {
        try (JsonParser parser = STREAMS.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String id = null;
            String state = null;
            String log = null;
            String error = null;
            boolean logTruncated = false;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "id" -> id = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "state" -> state = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "log" -> log = value == JsonToken.VALUE_STRING ? parser.getText() : "";
                    case "error" -> error = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                    case "logTruncated" -> logTruncated = value == JsonToken.VALUE_TRUE;
                    default -> parser.skipChildren();
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT) {
                throw new IOException("not a JSON object");
            }
            return new Answer(id, state, log, logTruncated, error);
        }
    }

    /** A failed call as the Run sees it: the job API's own failure as it is, anything else one message. */
    private RemoteJobException failed(JobServerUrl server, Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RemoteJobException remote) {
                return remote;
            }
            if (cause instanceof BoundedBody.TooLarge) {
                return new RemoteJobException(
                        RemoteJobException.Kind.TOO_LARGE,
                        "the job service's answer is" + " larger than " + responseLimit
                                + " bytes (--remote-response-limit)",
                        null);
            }
        }
        LOG.debug("{}: {}", server, failure.toString());
        return new RemoteJobException(RemoteJobException.Kind.UNREACHABLE, UNREACHABLE, null);
    }

    private static RemoteJobException badAnswer(String what) {
        return new RemoteJobException(
                RemoteJobException.Kind.BAD_ANSWER, "the job service answered badly: " + what, null);
    }

    private static String id(Answer answer) throws RemoteJobException {
        if (answer.id() == null || !ID.matcher(answer.id()).matches()) {
            throw badAnswer("no job id of 1 to 128 letters, digits and . _ : -");
        }
        return answer.id();
    }

    @FunctionalInterface
    private interface Step<T> {
        T run() throws RemoteJobException;
    }

    /** Runs a step of a future's chain, a failure carried on as the chain's exception. */
    private static <T> T checked(Step<T> step) {
        try {
            return step.run();
        } catch (RemoteJobException e) {
            throw new CompletionException(e);
        }
    }
}
