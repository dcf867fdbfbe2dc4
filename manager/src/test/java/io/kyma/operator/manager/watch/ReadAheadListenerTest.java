package io.kyma.operator.manager.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.Test;

class ReadAheadListenerTest {
    /** Runs tasks only when the test says so: the decoder thread that has not had the CPU yet. */
    private static final class HeldExecutor implements Executor {
        final Queue<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runOne() {
            tasks.remove().run();
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                runOne();
            }
        }
    }

    /** The socket: counts the demand the listener gives it. */
    private static final class Socket implements WebSocket {
        long requested;
        boolean aborted;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
            return CompletableFuture.completedFuture(this);
        }

        @Override
        public CompletableFuture<WebSocket> sendBinary(ByteBuffer data, boolean last) {
            return CompletableFuture.completedFuture(this);
        }

        @Override
        public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
            return CompletableFuture.completedFuture(this);
        }

        @Override
        public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
            return CompletableFuture.completedFuture(this);
        }

        @Override
        public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
            return CompletableFuture.completedFuture(this);
        }

        @Override
        public String getSubprotocol() {
            return "";
        }

        @Override
        public boolean isOutputClosed() {
            return false;
        }

        @Override
        public boolean isInputClosed() {
            return false;
        }

        @Override
        public void abort() {
            aborted = true;
        }
    }

    /** The client's listener: records what it is given and, like fabric8's, asks for more after each message. */
    private static final class Client implements WebSocket.Listener {
        final List<String> seen = new ArrayList<>();
        WebSocket socket;
        RuntimeException failWith;

        @Override
        public void onOpen(WebSocket webSocket) {
            socket = webSocket;
            seen.add("open");
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            seen.add(data + (last ? "" : "..."));
            webSocket.request(1);
            if (failWith != null) {
                RuntimeException e = failWith;
                failWith = null;
                throw e;
            }
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            seen.add("bytes:" + data.remaining());
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            seen.add("close " + statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            seen.add("error " + error.getMessage());
        }
    }

    private final HeldExecutor decoder = new HeldExecutor();
    private final Socket socket = new Socket();
    private final Client client = new Client();
    private final ReadAheadStats stats = new ReadAheadStats();

    private ReadAheadListener listener(long limitChars) {
        ReadAheadListener listener = new ReadAheadListener(client, decoder, limitChars, stats);
        listener.onOpen(socket);
        return listener;
    }

    @Test
    void asksForTheNextMessageBeforeThisOneIsDecoded() {
        ReadAheadListener listener = listener(1000);
        assertThat(socket.requested).as("demand after open").isEqualTo(1);

        listener.onText(socket, "{\"type\":\"ADDED\"}", true);
        listener.onText(socket, "{\"type\":\"MODIFIED\"}", true);

        assertThat(socket.requested).as("the reader went on while nothing was decoded").isEqualTo(3);
        assertThat(client.seen).containsExactly("open");
        assertThat(stats.queuedChars()).isEqualTo(16 + 19);

        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "{\"type\":\"ADDED\"}", "{\"type\":\"MODIFIED\"}");
        assertThat(socket.requested).as("the client's own requests do not add demand").isEqualTo(3);
        assertThat(stats.queuedChars()).isZero();
        assertThat(stats.peakQueuedChars()).isEqualTo(35);
        assertThat(stats.messages()).isEqualTo(2);
    }

    @Test
    void joinsTheFramesOfOneMessage() {
        ReadAheadListener listener = listener(1000);
        listener.onText(socket, "{\"a\":", false);
        listener.onText(socket, "1}", true);
        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "{\"a\":1}");
        assertThat(socket.requested).isEqualTo(3);
    }

    @Test
    void stopsReadingAtTheLimitAndResumesWhenTheDecoderCatchesUp() {
        ReadAheadListener listener = listener(10);
        listener.onText(socket, "123456", true);
        assertThat(socket.requested).isEqualTo(2);
        listener.onText(socket, "abcdef", true);
        assertThat(socket.requested).as("12 characters wait, more than the 10 allowed").isEqualTo(2);
        assertThat(stats.stalls()).isEqualTo(1);

        decoder.runOne();
        assertThat(socket.requested).as("6 wait after the first is decoded: read on").isEqualTo(3);
        decoder.runOne();
        assertThat(socket.requested).as("no second resume").isEqualTo(3);
        assertThat(client.seen).containsExactly("open", "123456", "abcdef");
    }

    @Test
    void aMessageLargerThanTheLimitIsStillDelivered() {
        ReadAheadListener listener = listener(4);
        listener.onText(socket, "0123456789", true);
        assertThat(socket.requested).isEqualTo(1);
        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "0123456789");
        assertThat(socket.requested).isEqualTo(2);
    }

    @Test
    void theCloseComesAfterEveryMessageBeforeIt() {
        ReadAheadListener listener = listener(1000);
        listener.onText(socket, "last event", true);
        CompletionStage<?> closed = listener.onClose(socket, 1000, "bye");
        assertThat(closed.toCompletableFuture()).as("the close waits for the decoder").isNotDone();

        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "last event", "close 1000");
        assertThat(closed.toCompletableFuture()).isDone();
    }

    @Test
    void errorsToo() {
        ReadAheadListener listener = listener(1000);
        listener.onText(socket, "event", true);
        listener.onError(socket, new IllegalStateException("reset"));
        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "event", "error reset");
    }

    @Test
    void aFailingHandlerDoesNotStopTheConnection() {
        ReadAheadListener listener = listener(10);
        client.failWith = new IllegalStateException("bad event");
        listener.onText(socket, "123456", true);
        listener.onText(socket, "abcdef", true);
        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "123456", "abcdef");
        assertThat(stats.queuedChars()).isZero();
        assertThat(socket.requested).as("resumed after the failed message was accounted").isEqualTo(3);
    }

    @Test
    void binaryMessagesAreJoinedAndQueuedAlike() {
        ReadAheadListener listener = listener(1000);
        listener.onBinary(socket, ByteBuffer.wrap(new byte[3]), false);
        listener.onBinary(socket, ByteBuffer.wrap(new byte[4]), true);
        assertThat(socket.requested).isEqualTo(3);
        decoder.runAll();
        assertThat(client.seen).containsExactly("open", "bytes:7");
    }

    @Test
    void pingsAndPongsOnlyKeepReading() {
        ReadAheadListener listener = listener(1000);
        listener.onPing(socket, ByteBuffer.allocate(0));
        listener.onPong(socket, ByteBuffer.allocate(0));
        assertThat(socket.requested).isEqualTo(3);
        assertThat(decoder.tasks).isEmpty();
    }

    @Test
    void theClientSendsAndAbortsThroughTheRealSocket() {
        listener(1000);
        client.socket.abort();
        assertThat(socket.aborted).isTrue();
    }
}
