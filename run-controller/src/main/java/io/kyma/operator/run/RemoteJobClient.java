package io.kyma.operator.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.kyma.operator.common.DaemonThreads;
import io.kyma.operator.run.JobCalls.Kind;

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

    private static final int MAX_STATE = 64;

    /**
     * The most of an answer's status line and headers the JDK's client reads ({@code jdk.http.maxHeaderSize}, which
     * {@code Main} sets to this unless it was set); a larger head fails the call.
     */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    /**
     * Why no client is made in a JVM whose HTTP client will not send a Host header of the operator's own
     * ({@code jdk.httpclient.allowRestrictedHeaders}, which {@code Main} sets): a call to a name would have to connect
     * by the name, which may resolve elsewhere than the address checked.
     */
    static final String NOT_PINNED = "the operator cannot call a job service by name in this JVM: start it with"
            + " -Djdk.httpclient.allowRestrictedHeaders=host";

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
    private final JobCalls.Timer alarms;

    /**
     * @param requestTimeout the longest a whole exchange may take, from connecting to the last byte of the answer
     * @param responseLimit the largest answer read, in bytes
     * @param addresses where calls may connect, checked on each call's resolved addresses
     * @param lookupThreads threads for name look-ups, which block: as many as calls may be in flight, so that no
     *        call's look-up waits behind another's (they end when idle)
     * @param alarms ends each exchange at the request timeout (the calls' timer; tests set them off themselves)
     */
    public RemoteJobClient(
            Duration connectTimeout,
            Duration requestTimeout,
            long responseLimit,
            ServerAddresses addresses,
            int lookupThreads,
            JobCalls.Timer alarms) {
        this(connectTimeout, requestTimeout, responseLimit, addresses, lookupThreads, defaultTls(), alarms);
    }

    /** @param tls what HTTPS calls trust and present */
    RemoteJobClient(
            Duration connectTimeout,
            Duration requestTimeout,
            long responseLimit,
            ServerAddresses addresses,
            int lookupThreads,
            SSLContext tls,
            JobCalls.Timer alarms) {
        if (!hostHeaderAllowed()) {
            throw new IllegalStateException(NOT_PINNED);
        }
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
        this.answers = Executors.newFixedThreadPool(2, DaemonThreads.numbered("job-service-client-"));
        Supplier<HttpClient.Builder> builder = () -> HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(this.answers);
        this.http = builder.get().build();
        this.tls = new TlsClients(tls, builder, lookupThreads);
        this.requestTimeout = requestTimeout;
        this.responseLimit = responseLimit;
        this.alarms = alarms;
    }

    @Override
    public CompletableFuture<JobService.Start> start(
            JobServerUrl server, String name, Map<String, String> params, String idempotencyKey) {
        byte[] body = StartBody.encode(name, params, idempotencyKey);
        return call(
                        server,
                        null,
                        at -> HttpRequest.newBuilder(at.jobs())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body)),
                        Kind.START)
                .thenApply(reply -> new JobService.Start(reply.id(), reply.server()));
    }

    /**
     * A job as the service describes it, its log limited to the last {@code tailBytes} bytes. Services that do not
     * know the {@code tailBytes} parameter send the whole log, which the response limit bounds.
     */
    @Override
    public CompletableFuture<RemoteJob> get(JobServerUrl server, String id, int tailBytes) {
        return call(
                        server,
                        id,
                        at -> HttpRequest.newBuilder(at.job(id, "tailBytes=" + tailBytes))
                                .GET(),
                        Kind.POLL)
                .thenApply(reply -> {
                    JobAnswer answer = reply.answer();
                    // Kept until a reconcile takes it: cut here, on the call's thread, to the tail the status shows.
                    LogTail tail = LogTail.of(ServerText.log(answer.log()), answer.logTruncated(), LogTail.MAX_BYTES);
                    return new RemoteJob(id, ServerText.line(answer.state(), MAX_STATE), tail.text(), tail.truncated());
                });
    }

    /** Cancels a job: done when the service took it, or says the job is unknown (404, 410) or finished (409). */
    @Override
    public CompletableFuture<Void> cancel(JobServerUrl server, String id) {
        return call(server, id, at -> HttpRequest.newBuilder(at.job(id, "")).DELETE(), Kind.CANCEL)
                .thenApply(reply -> null);
    }

    @Override
    public void close() {
        tls.close();
        TlsClients.shutDown(http);
        lookups.shutdownNow();
        answers.shutdownNow();
    }

    /**
     * A usable answer and the server it came from: pinned to the address the call connected to, when it connected to
     * an address it checked for a name (any name but the default server's, which is called by its name). {@code id}
     * is a start's job id, checked.
     */
    private record Reply(JobAnswer answer, String id, JobServerUrl server) {}

    /**
     * One exchange: the server's name looked up and its addresses checked (off the caller's thread), the request sent
     * to the address checked, the answer read and parsed; all of it within the request timeout. No call is made for
     * an {@code id} that is not a job id.
     */
    private CompletableFuture<Reply> call(
            JobServerUrl server, String id, Function<JobServerUrl, HttpRequest.Builder> request, Kind kind) {
        if (kind != Kind.START && !JobAnswer.validId(id)) {
            return CompletableFuture.failedFuture(notAnId(id));
        }
        CompletableFuture<Reply> result = new CompletableFuture<>();
        Runnable disarm =
                alarms.later(requestTimeout, () -> result.completeExceptionally(RemoteJobException.unreachable()));
        // Only a name waits for a name server, on the look-up threads: the default server and addresses are checked
        // at once, so that slow look-ups of one tenant's names do not hold them up. A look-up whose call has ended
        // (its time ran out while it waited for a thread) is dropped, not made: slow names must not fill the queue
        // with look-ups nobody waits for, ahead of the names of other calls.
        Executor checker = addresses.looksUp(server) ? lookups : Runnable::run;
        CompletableFuture.supplyAsync(
                        () -> {
                            if (result.isDone()) {
                                throw new CancellationException("the call ended before its look-up began");
                            }
                            return addresses.check(server);
                        },
                        checker)
                .thenCompose(address -> {
                    // The request goes to the address checked, the name in its Host header (and, over HTTPS, as the
                    // server name its certificate is checked against): the JDK's client is given no name to look up
                    // again.
                    boolean name = server.hostIsName();
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
                    result.whenComplete((done, failure) -> sent.cancel(true)); // the exchange ends with its call
                    return sent.thenApply(response -> reply(response, kind, id, connected));
                })
                .whenComplete((answer, failure) -> {
                    disarm.run();
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

    /**
     * The one place an answer's status code and body are judged. A body that is not the job API's reads as no job
     * service at all (as an unreachable one: a proxy may stand in during an outage, and a Run cannot probe what else
     * answers). A job-API answer that breaks the protocol is a bad answer, retried only up to a cap. A start that was
     * taken is never sent again: without a job id in its body (else its {@code Location}), it fails. Taken is any 2xx but
     * a 200 that has neither a job-API body nor a {@code Location} (a stand-in's page), a 303 whose {@code Location}
     * names a job, and a 409 naming the job an earlier try of the same start made.
     */
    private static Reply reply(HttpResponse<byte[]> response, Kind kind, String id, JobServerUrl server) {
        int code = response.statusCode();
        if (kind == Kind.CANCEL && (code / 100 == 2 || code == 404 || code == 409 || code == 410)) {
            return new Reply(null, null, server); // cancelled, or nothing left to cancel
        }
        JobAnswer answer = JobAnswer.read(response.body());
        Optional<String> location = response.headers().firstValue("Location");
        String located = location.map(at -> idIn(response.request().uri(), at)).orElse(null);
        String started = answer != null && JobAnswer.validId(answer.id()) ? answer.id() : located;
        if (kind == Kind.START
                && (code / 100 == 2 && (code != 200 || answer != null || location.isPresent())
                        || code == 303 && JobAnswer.validId(located)
                        || code == 409 && answer != null && answer.id() != null)) { // 409: an earlier try's job
            if (!JobAnswer.validId(started)) {
                throw new RemoteJobException(
                        RemoteJobException.Kind.BAD_START,
                        "the job service took the start (HTTP " + code + ") but named no job id of 1 to 128 letters,"
                                + " digits and . _ : - in its answer or Location; it is not sent again");
            }
            return new Reply(answer, started, server);
        }
        if (answer == null || code < 200 || (code >= 300 && code < 400)) {
            throw RemoteJobException.unreachable();
        }
        String text = answer.error() == null ? "" : ": " + ServerText.line(answer.error(), ServerText.MAX_MESSAGE);
        if (code >= 500 || busy(code, kind == Kind.START)) {
            throw new RemoteJobException(
                    RemoteJobException.Kind.SERVER_ERROR, "the job service answered HTTP " + code + text);
        }
        if (kind == Kind.POLL && (code == 404 || code == 410)) {
            throw new RemoteJobException(
                    RemoteJobException.Kind.NOT_FOUND,
                    "the job service does not know the job (HTTP " + code + ")" + text);
        }
        if (code >= 400) {
            throw new RemoteJobException(
                    kind == Kind.START ? RemoteJobException.Kind.REJECTED : RemoteJobException.Kind.BAD_ANSWER,
                    "the job service refused the " + (kind == Kind.START ? "job" : "request") + " (HTTP " + code + ")"
                            + text);
        }
        if (answer.malformed() != null) {
            throw badAnswer(answer.malformed());
        }
        if (kind == Kind.POLL && !id.equals(answer.id())) {
            String other =
                    answer.id() == null ? "no job id" : "the record of job " + ServerText.line(answer.id(), MAX_STATE);
            throw badAnswer("a poll of job " + id + " answered with " + other);
        }
        if (kind == Kind.POLL && (answer.state() == null || answer.state().isBlank())) {
            throw badAnswer("an answer without the job's state");
        }
        return new Reply(answer, null, server);
    }

    /**
     * The job a {@code Location} names: resolved against the URI of the start's request ({@code <base>/jobs}), its
     * path must be that path followed by one segment, the id; else null.
     */
    static String idIn(URI jobs, String location) {
        try {
            String path = jobs.resolve(location.strip()).normalize().getRawPath();
            String prefix = jobs.getRawPath() + "/";
            return path != null && path.startsWith(prefix) ? path.substring(prefix.length()) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
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

    /** A failed call as the Run sees it: the job API's own failure as it is, anything else one message. */
    private static RemoteJobException failed(JobServerUrl server, Throwable failure) {
        RemoteJobException seen = RemoteJobException.of(failure);
        if (seen.getCause() == failure) {
            LOG.debug("{}: {}", server, failure.toString());
        }
        return seen;
    }

    /** A job id no call is made for: it would name another path than its job's (a status written by hand). */
    static RemoteJobException notAnId(String id) {
        return new RemoteJobException(
                RemoteJobException.Kind.REJECTED,
                "status.remoteId " + ServerText.line(id, MAX_STATE) + " is not a job id of 1 to 128 letters, digits"
                        + " and . _ : - (not starting with . _ : -): no call is made for it");
    }

    private static RemoteJobException badAnswer(String what) {
        return new RemoteJobException(RemoteJobException.Kind.BAD_ANSWER, "the job service answered badly: " + what);
    }
}
