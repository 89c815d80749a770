package io.kubepekko.e2e.support;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port that hands each new client connection to the next of its
 * backends in turn, then copies bytes both ways until either side closes. It knows nothing of HTTP:
 * every request on one keep-alive connection reaches the same backend, and the next connection the
 * next backend, which is how a client spreads over the nodes behind a plain L4 load balancer.
 */
public final class RoundRobinProxy implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int BUFFER_BYTES = 16 * 1024;

    private final ServerSocket listener;
    private final List<InetSocketAddress> backends;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger[] accepted;

    /** Every socket still open, so that close() can end the copies it started. */
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    private volatile boolean closed;

    private RoundRobinProxy(ServerSocket listener, List<InetSocketAddress> backends) {
        this.listener = listener;
        this.backends = List.copyOf(backends);
        this.accepted = new AtomicInteger[backends.size()];
        for (int i = 0; i < accepted.length; i++) {
            accepted[i] = new AtomicInteger();
        }
    }

    /** Listens on a free port of 127.0.0.1 in front of {@code backends} (at least one). */
    public static RoundRobinProxy start(List<InetSocketAddress> backends) throws IOException {
        if (backends.isEmpty()) {
            throw new IllegalArgumentException("a proxy needs at least one backend");
        }
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        RoundRobinProxy proxy = new RoundRobinProxy(listener, backends);
        Thread acceptor =
                new Thread(proxy::acceptLoop, "round-robin-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
        return proxy;
    }

    /**
     * {@code https://127.0.0.1:<port>} of the proxy: the TLS of a client's connection passes
     * through to the backend, whose serving certificate names 127.0.0.1.
     */
    public String url() {
        return "https://127.0.0.1:" + listener.getLocalPort();
    }

    /** How many client connections backend {@code index} has been given so far. */
    public int connectionsTo(int index) {
        return accepted[index].get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // the listener was closed
            }
            int index = Math.floorMod(next.getAndIncrement(), backends.size());
            accepted[index].incrementAndGet();
            Socket upstream = new Socket();
            try {
                upstream.connect(backends.get(index), CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
            } catch (IOException e) {
                // The client sees its connection reset, as behind a real balancer with a dead
                // backend.
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            Pair pair = new Pair(client, upstream);
            startCopy(client, upstream, pair, "up");
            startCopy(upstream, client, pair, "down");
        }
    }

    private void startCopy(Socket from, Socket to, Pair pair, String direction) {
        Thread t =
                new Thread(
                        () -> copy(from, to, pair),
                        "round-robin-proxy-" + direction + "-" + from.getPort());
        t.setDaemon(true);
        t.start();
    }

    /**
     * Copies until end of input, then half-closes the other side so that a client's shutdown of its
     * output reaches the server as it would without the proxy; the pair closes once both ways
     * ended.
     */
    private void copy(Socket from, Socket to, Pair pair) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
            to.shutdownOutput();
            pair.oneWayDone();
        } catch (IOException e) {
            // A reset on either side ends both directions at once.
            pair.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing is all that is left to do
        }
        if (c instanceof Socket s) {
            open.remove(s);
        }
    }

    /** A client connection and the backend connection it was given. */
    private final class Pair {
        private final Socket client;
        private final Socket upstream;
        private final AtomicInteger running = new AtomicInteger(2);

        Pair(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void oneWayDone() {
            if (running.decrementAndGet() == 0) {
                close();
            }
        }

        void close() {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    @Override
    public String toString() {
        return "RoundRobinProxy" + url() + "->" + backends;
    }
}
