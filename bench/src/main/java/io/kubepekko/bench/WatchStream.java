package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One watcher: its own connection, and a thread blocked reading the stream, which hands each
 * complete newline-delimited JSON document to a listener together with the time its last byte
 * arrived. A blocking socket per watcher keeps the client simple and cheap: a thread that waits
 * costs no CPU, and a thousand of them with small stacks fit easily.
 */
final class WatchStream implements HttpConn.BodySink {

    /** Receives each line of the stream on the watcher's thread. */
    @FunctionalInterface
    interface Listener {
        void line(WatchStream stream, String line, long arrivedNanos);
    }

    /** Blocking on a socket needs little stack; 1,000 watchers should not reserve 1 GiB. */
    private static final long STACK_BYTES = 256 * 1024;

    /** Watches stay quiet between writes; they are ended by {@link #close()}, not by a timeout. */
    private static final int READ_TIMEOUT_MS = 10 * 60_000;

    private final int index;
    private final HttpConn conn;
    private final ReadStore.WatchRequest request;
    private final Listener listener;
    private final Runnable onOpen;
    private final Thread thread;
    private byte[] pending = new byte[4096];
    private int pendingLength;
    private volatile boolean closing;
    private volatile String problem;

    /**
     * @param onOpen run once the store answered 200: for a store that does not confirm a watch with
     *     a first message, this is the moment it is set up
     */
    WatchStream(
            int index,
            ReadStore store,
            ReadStore.WatchRequest request,
            Listener listener,
            Runnable onOpen) {
        this.index = index;
        this.conn = store.newConnection();
        this.conn.readTimeout(READ_TIMEOUT_MS);
        this.request = request;
        this.listener = listener;
        this.onOpen = onOpen;
        this.thread = new Thread(null, this::read, "watch-" + index, STACK_BYTES);
        this.thread.setDaemon(true);
    }

    int index() {
        return index;
    }

    void start() {
        thread.start();
    }

    /** The first thing that went wrong on this stream, or null. */
    String problem() {
        return problem;
    }

    void problem(String what) {
        if (problem == null) {
            problem = "watcher " + index + ": " + what;
        }
    }

    private void read() {
        try {
            conn.stream(request.method(), request.path(), request.body(), this);
            if (!closing) {
                problem("the store ended the stream");
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                problem(e.toString());
            }
        } finally {
            conn.close();
        }
    }

    @Override
    public void status(int status) {
        if (status != 200) {
            problem("watch answered HTTP " + status);
        } else {
            onOpen.run();
        }
    }

    @Override
    public void accept(byte[] buffer, int offset, int length) {
        long now = System.nanoTime();
        int end = offset + length;
        int lineStart = offset;
        for (int i = offset; i < end; i++) {
            if (buffer[i] == '\n') {
                String line;
                if (pendingLength == 0) {
                    line = new String(buffer, lineStart, i - lineStart, StandardCharsets.UTF_8);
                } else {
                    append(buffer, lineStart, i - lineStart);
                    line = new String(pending, 0, pendingLength, StandardCharsets.UTF_8);
                    pendingLength = 0;
                }
                if (!line.isBlank()) {
                    listener.line(this, line, now);
                }
                lineStart = i + 1;
            }
        }
        append(buffer, lineStart, end - lineStart);
    }

    private void append(byte[] buffer, int offset, int length) {
        if (pendingLength + length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + length));
        }
        System.arraycopy(buffer, offset, pending, pendingLength, length);
        pendingLength += length;
    }

    /** Ends the watch from this side; {@link #join()} then waits for the reader to notice. */
    void abort() {
        closing = true;
        conn.abort();
    }

    void join() throws InterruptedException {
        thread.join(5_000);
    }
}
