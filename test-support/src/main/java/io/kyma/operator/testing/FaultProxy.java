package io.kyma.operator.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback for fault injection between a client and a server of this machine (TLS passes through
 * untouched): it can reset every open connection at once, as a crashed load balancer or a restarted API server does,
 * refuse new connections for a while, and delay what the server sends. It only ever connects to the target it was
 * given, which must be a loopback address, and its threads end when it is closed.
 */
public final class FaultProxy implements AutoCloseable {
    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();
    private volatile long refuseUntilNanos;
    private volatile Duration delay = Duration.ZERO;
    private volatile boolean closed;

    private FaultProxy(InetSocketAddress target) throws IOException {
        if (!target.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("a fault proxy forwards to loopback only, not " + target);
        }
        this.target = target;
        this.listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy to {@code host:port} (a loopback address), listening on a free loopback port. */
    public static FaultProxy to(String host, int port) {
        try {
            return new FaultProxy(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Connections accepted so far, refused ones included. */
    public long accepted() {
        return accepted.get();
    }

    /** Sockets this proxy reset: two for each proxied connection (client and server side), one for a refused one. */
    public long resets() {
        return resets.get();
    }

    /** Resets every open connection (a TCP RST to both sides): requests in flight fail, watches end. */
    public void resetAll() {
        for (Socket socket : open) {
            reset(socket);
        }
    }

    /** Resets every connection accepted during the next {@code period}, as a server that is down would. */
    public void refuseFor(Duration period) {
        refuseUntilNanos = System.nanoTime() + period.toNanos();
    }

    /** Holds back each chunk the server sends by {@code delay} (zero for none). */
    public void delay(Duration delay) {
        this.delay = delay;
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        resetAll();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            accepted.incrementAndGet();
            if (System.nanoTime() < refuseUntilNanos) {
                reset(client);
                continue;
            }
            try {
                Socket server = new Socket();
                server.connect(target, 5_000);
                open.add(client);
                open.add(server);
                pump(client, server, Duration.ZERO, "up");
                pump(server, client, null, "down");
            } catch (IOException e) {
                reset(client);
            }
        }
    }

    /** Copies from one socket to the other until either ends; {@code pause} null means the configured delay. */
    private void pump(Socket from, Socket to, Duration pause, String direction) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            Duration wait = pause == null ? delay : pause;
                            if (!wait.isZero()) {
                                Thread.sleep(wait.toMillis());
                            }
                            out.write(buffer, 0, read);
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // a reset or a close: the other direction ends too
                    } finally {
                        close(from);
                        close(to);
                    }
                },
                "fault-proxy-" + direction + "-" + from.getPort());
        thread.setDaemon(true);
        thread.start();
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0); // close with RST rather than FIN
            socket.close();
            if (open.remove(socket)) {
                resets.incrementAndGet();
            }
        } catch (IOException e) {
            // already gone
        }
    }

    private void close(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }
}
