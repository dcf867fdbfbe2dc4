package io.kyma.operator.manager.watch;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a watch connection without waiting for each message to be decoded.
 * <p>
 * The client decodes a watch event on the thread that read it and only then asks the socket for the next one, so
 * while the operator is short of CPU the socket fills up, the API server's writer blocks, and the API server closes
 * the watch as unresponsive. This listener sits between the socket and the client's listener: it takes each whole
 * message off the socket, asks for the next one at once, and hands the message to the client's listener on a
 * serial executor, in order. Closes and errors follow the same queue, so they arrive after every message before
 * them. At most {@code limitChars} characters wait to be decoded per connection; past that it stops asking the
 * socket for more until the decoder has caught up, which is where the client would have stopped anyway.
 */
final class ReadAheadListener implements WebSocket.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(ReadAheadListener.class);

    private final WebSocket.Listener downstream;
    private final Executor decoder;
    private final long limitChars;
    private final ReadAheadStats stats;
    private final StringBuilder partialText = new StringBuilder();
    private ByteBuffer partialBinary = ByteBuffer.allocate(0);
    private final Object lock = new Object();
    private long waitingChars;
    private boolean stalled;
    private volatile WebSocket socket;
    private volatile WebSocket asSeenDownstream;

    /** @param decoder runs one task at a time, in order (one per connection) */
    ReadAheadListener(WebSocket.Listener downstream, Executor decoder, long limitChars, ReadAheadStats stats) {
        this.downstream = downstream;
        this.decoder = decoder;
        this.limitChars = limitChars;
        this.stats = stats;
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        socket = webSocket;
        asSeenDownstream = new DemandFreeWebSocket(webSocket);
        downstream.onOpen(asSeenDownstream);
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partialText.append(data);
        if (!last) {
            webSocket.request(1);
            return null;
        }
        String message = partialText.toString();
        partialText.setLength(0);
        handOff(message.length(), () -> downstream.onText(asSeenDownstream, message, true));
        return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        ByteBuffer joined = ByteBuffer.allocate(partialBinary.remaining() + data.remaining());
        joined.put(partialBinary).put(data).flip();
        if (!last) {
            partialBinary = joined;
            webSocket.request(1);
            return null;
        }
        partialBinary = ByteBuffer.allocate(0);
        handOff(joined.remaining(), () -> downstream.onBinary(asSeenDownstream, joined, true));
        return null;
    }

    @Override
    public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
        webSocket.request(1); // the socket answers the ping itself
        return null;
    }

    @Override
    public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        decoder.execute(() -> {
            try {
                downstream.onClose(asSeenDownstream, statusCode, reason);
            } finally {
                delivered.complete(null);
            }
        });
        return delivered;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        decoder.execute(() -> downstream.onError(asSeenDownstream, error));
    }

    private void handOff(int chars, Runnable deliver) {
        boolean readOn;
        synchronized (lock) {
            waitingChars += chars;
            readOn = waitingChars < limitChars;
            stalled = !readOn;
        }
        stats.queued(chars);
        if (!readOn) {
            stats.stalled();
        }
        decoder.execute(() -> {
            try {
                deliver.run();
            } catch (RuntimeException e) {
                LOG.error("watch message handler failed", e);
            } finally {
                decoded(chars);
            }
        });
        if (readOn) {
            socket.request(1);
        }
    }

    private void decoded(int chars) {
        boolean resume;
        synchronized (lock) {
            waitingChars -= chars;
            resume = stalled && waitingChars < limitChars;
            if (resume) {
                stalled = false;
            }
        }
        stats.decoded(chars);
        if (resume) {
            socket.request(1);
        }
    }

    /** The socket as the client's listener sees it: demand is this listener's business, everything else passes. */
    private record DemandFreeWebSocket(WebSocket socket) implements WebSocket {
        @Override
        public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
            return socket.sendText(data, last);
        }

        @Override
        public CompletableFuture<WebSocket> sendBinary(ByteBuffer data, boolean last) {
            return socket.sendBinary(data, last);
        }

        @Override
        public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
            return socket.sendPing(message);
        }

        @Override
        public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
            return socket.sendPong(message);
        }

        @Override
        public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
            return socket.sendClose(statusCode, reason);
        }

        @Override
        public void request(long n) {
            // ignored: the read-ahead listener asks for the next message as soon as it has queued this one
        }

        @Override
        public String getSubprotocol() {
            return socket.getSubprotocol();
        }

        @Override
        public boolean isOutputClosed() {
            return socket.isOutputClosed();
        }

        @Override
        public boolean isInputClosed() {
            return socket.isInputClosed();
        }

        @Override
        public void abort() {
            socket.abort();
        }
    }
}
