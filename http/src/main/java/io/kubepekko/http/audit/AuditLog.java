package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's log backend: each event one line ({@link AuditLogFormat}) written by one writer thread,
 * off the request threads, through a bounded FIFO queue, so events leave in the order they were
 * recorded (a request's stages stay in order). No caller ever waits for room or for the disk:
 *
 * <ul>
 *   <li>{@link AuditMode#BATCH}: the answer is known at once, true when the event was queued;
 *   <li>the blocking modes: the answer completes once the writer has written the event (or failed
 *       to), so a request that chains its next step to it waits for its event as kube's blocking
 *       backend makes it wait, with no thread held meanwhile.
 * </ul>
 *
 * <p>The queue holds at most {@code capacity} events; past that an event is dropped at once and
 * answered false. In the blocking modes each request waits for its event before it goes on, so the
 * queue holds about one event per request in flight and fills only with more requests in flight
 * than its capacity. Drops are counted and logged, never the event's content beyond its audit id.
 * Answers complete on {@code completions}, never on the writer, so what a request chains to them
 * does not run on (or stall) the writer.
 */
public final class AuditLog implements AuditSink {
    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);

    /** How long {@link #close} waits for a stalled output before it gives up what is queued. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    /** Where lines go: a rotating file, standard output, or a test's capture. */
    public interface LineWriter extends AutoCloseable {
        void write(byte[] line) throws IOException;

        @Override
        void close() throws IOException;
    }

    /** An event waiting for the writer, and who waits for it to be written (none in batch). */
    private record Queued(AuditEvent event, CompletableFuture<Boolean> written) {}

    /** Put after the last event by {@link #close}: the writer stops when it reaches it. */
    private static final Object STOP = new Object();

    private static final CompletionStage<Boolean> TAKEN = CompletableFuture.completedFuture(true);
    private static final CompletionStage<Boolean> REFUSED =
            CompletableFuture.completedFuture(false);

    private final BlockingQueue<Object> queue;
    private final LineWriter out;
    private final AuditLogFormat format;
    private final AuditMode mode;
    private final Duration closeTimeout;
    private final Executor completions;
    private final Thread writer;
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param capacity the most events waiting for the writer
     * @param closeTimeout how long {@link #close} waits for a stalled output
     * @param completions where the answers of the blocking modes complete
     */
    public AuditLog(
            LineWriter out,
            AuditLogFormat format,
            AuditMode mode,
            int capacity,
            Duration closeTimeout,
            Executor completions) {
        this.queue = new ArrayBlockingQueue<>(capacity, true);
        this.out = out;
        this.format = format;
        this.mode = mode;
        this.closeTimeout = closeTimeout;
        this.completions = completions;
        this.writer = new Thread(this::drain, "audit-log-writer");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    @Override
    public CompletionStage<Boolean> record(AuditEvent event) {
        if (closed) {
            return REFUSED;
        }
        CompletableFuture<Boolean> written =
                mode == AuditMode.BATCH ? null : new CompletableFuture<>();
        if (!queue.offer(new Queued(event, written))) {
            long n = dropped.incrementAndGet();
            log.warn(
                    "audit log queue full: dropped the {} event of audit id {} ({} dropped so far)",
                    event.stage().wireName(),
                    event.auditID(),
                    n);
            return REFUSED;
        }
        return written == null ? TAKEN : written;
    }

    /** Events dropped because the queue was full. */
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
            Queued queued = (Queued) item;
            boolean ok;
            try {
                out.write(format.line(queued.event()));
                ok = true;
            } catch (IOException | RuntimeException e) {
                ok = false;
                log.error(
                        "unable to write the audit event of audit id {}: {}",
                        queued.event().auditID(),
                        e.toString());
            }
            answer(queued, ok);
        }
    }

    private void answer(Queued queued, boolean written) {
        if (queued.written() == null) {
            return;
        }
        try {
            completions.execute(() -> queued.written().complete(written));
        } catch (RejectedExecutionException shutDown) {
            queued.written().complete(written); // nothing is left to run a request's next step
        }
    }

    /**
     * Stops taking events, writes what is queued (waiting at most the close timeout for a stalled
     * writer), and closes the output. Events it could not write are answered false.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (queue.offer(STOP, closeTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                writer.join(closeTimeout.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            log.warn("audit log writer stalled: {} events not written", queue.size());
            writer.interrupt();
        }
        // Events recorded while close began, or left behind by a stalled writer.
        List<Object> left = new ArrayList<>();
        queue.drainTo(left);
        for (Object item : left) {
            if (item instanceof Queued queued) {
                answer(queued, false);
            }
        }
        try {
            out.close();
        } catch (IOException e) {
            log.warn("closing the audit log: {}", e.toString());
        }
    }
}
