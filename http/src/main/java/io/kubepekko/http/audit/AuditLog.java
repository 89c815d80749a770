package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's log backend: each event one line ({@link AuditLogFormat}) written by one writer thread,
 * off the request threads, through a bounded FIFO queue, so events leave in the order they were
 * recorded (a request's stages stay in order). When the queue is full the {@link AuditMode}
 * decides: drop at once, or wait a bounded time and then drop. Drops are counted and logged, never
 * the event's content beyond its audit id.
 */
public final class AuditLog implements AuditSink {
    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);

    /** How long a blocking caller waits for room in the queue before the event is dropped. */
    public static final Duration DEFAULT_BLOCK_TIMEOUT = Duration.ofSeconds(10);

    /** Where lines go: a rotating file, standard output, or a test's capture. */
    public interface LineWriter extends AutoCloseable {
        void write(byte[] line) throws IOException;

        @Override
        void close() throws IOException;
    }

    /** Put after the last event by {@link #close}: the writer stops when it reaches it. */
    private static final Object STOP = new Object();

    private final BlockingQueue<Object> queue;
    private final LineWriter out;
    private final AuditLogFormat format;
    private final AuditMode mode;
    private final Duration blockTimeout;
    private final Thread writer;
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    public AuditLog(
            LineWriter out,
            AuditLogFormat format,
            AuditMode mode,
            int capacity,
            Duration blockTimeout) {
        this.queue = new ArrayBlockingQueue<>(capacity, true);
        this.out = out;
        this.format = format;
        this.mode = mode;
        this.blockTimeout = blockTimeout;
        this.writer = new Thread(this::drain, "audit-log-writer");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    @Override
    public boolean record(AuditEvent event) {
        if (closed) {
            return false;
        }
        boolean taken;
        try {
            taken =
                    mode == AuditMode.BATCH
                            ? queue.offer(event)
                            : queue.offer(event, blockTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            taken = false;
        }
        if (!taken) {
            long n = dropped.incrementAndGet();
            log.warn(
                    "audit log queue full: dropped the {} event of audit id {} ({} dropped so far)",
                    event.stage().wireName(),
                    event.auditID(),
                    n);
        }
        return taken;
    }

    /** Events dropped because the queue stayed full. */
    public long dropped() {
        return dropped.get();
    }

    private void drain() {
        while (true) {
            Object item;
            try {
                item = queue.take();
            } catch (InterruptedException e) {
                return; // close gave up waiting for a stalled output
            }
            if (item == STOP) {
                return;
            }
            AuditEvent event = (AuditEvent) item;
            try {
                out.write(format.line(event));
            } catch (IOException | RuntimeException e) {
                log.error(
                        "unable to write the audit event of audit id {}: {}",
                        event.auditID(),
                        e.toString());
            }
        }
    }

    /**
     * Stops taking events, writes what is queued (waiting at most the block timeout for a stalled
     * writer), and closes the output.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (queue.offer(STOP, blockTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                writer.join(blockTimeout.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            log.warn("audit log writer stalled: {} events not written", queue.size());
            writer.interrupt();
        }
        try {
            out.close();
        } catch (IOException e) {
            log.warn("closing the audit log: {}", e.toString());
        }
    }
}
