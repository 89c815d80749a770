package io.kubepekko.agent.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * List, then watch from the list's resourceVersion, as client-go's reflector does: a watch that
 * ends is reopened from the last resourceVersion seen (an event's or a bookmark's) without listing
 * again; only a 410 Gone (an answer or an {@code ERROR} event) makes it list again. Failures are
 * retried with back-off and logged once per streak. The handler is called from one operation at a
 * time, in order.
 */
public final class Reflector {

    private static final Logger LOG = LoggerFactory.getLogger(Reflector.class);

    /** Where a reflector's objects go. */
    public interface Handler {
        /** A (re)list: the whole current set, at {@code resourceVersion}. */
        void listed(List<ObjectNode> items, String resourceVersion);

        /** An {@code ADDED}, {@code MODIFIED} or {@code DELETED} event after the list. */
        void event(WatchEvent event);
    }

    /** What to do when a watch stream has ended. */
    public enum Next {
        RESUME,
        RESUME_AFTER_BACKOFF,
        RELIST
    }

    /**
     * The reflector's rule: a normal end resumes at once; 410 Gone relists; any other error resumes
     * from the same resourceVersion after a back-off (the version may well still be served).
     */
    public static Next afterWatch(Optional<ApiError> error) {
        if (error.isEmpty()) {
            return Next.RESUME;
        }
        return error.get().isGone() ? Next.RELIST : Next.RESUME_AFTER_BACKOFF;
    }

    private final ApiClient client;
    private final String collectionPath;
    private final ListOptions options;
    private final int watchTimeoutSeconds;
    private final Handler handler;
    private final ScheduledExecutorService scheduler;
    private final String what;
    private final AtomicInteger lists = new AtomicInteger();

    private volatile boolean stopped;
    private volatile Watch current;
    private volatile String lastResourceVersion = "";
    private Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), 0);

    public Reflector(
            ApiClient client,
            String collectionPath,
            ListOptions options,
            Duration watchTimeout,
            Handler handler,
            ScheduledExecutorService scheduler) {
        this.client = client;
        this.collectionPath = collectionPath;
        this.options = options;
        this.watchTimeoutSeconds = (int) Math.max(1, watchTimeout.toSeconds());
        this.handler = handler;
        this.scheduler = scheduler;
        this.what =
                collectionPath
                        + (options.fieldSelector().isEmpty()
                                ? ""
                                : "?fieldSelector=" + options.fieldSelector());
    }

    public void start() {
        list();
    }

    public void stop() {
        stopped = true;
        Watch w = current;
        if (w != null) {
            w.stop();
        }
    }

    /** How many times it has listed (once, unless a 410 or a failed list made it list again). */
    public int listCount() {
        return lists.get();
    }

    /** The last resourceVersion seen: where the next watch starts. */
    public String lastResourceVersion() {
        return lastResourceVersion;
    }

    private void list() {
        if (stopped) {
            return;
        }
        lists.incrementAndGet();
        client.list(collectionPath, options.withResourceVersion(""))
                .whenComplete(
                        (list, t) -> {
                            if (t != null) {
                                failed("list", ApiError.of(t), this::list);
                                return;
                            }
                            recovered();
                            List<ObjectNode> items = new ArrayList<>();
                            for (JsonNode i : list.path("items")) {
                                if (i instanceof ObjectNode o) {
                                    items.add(o);
                                }
                            }
                            lastResourceVersion =
                                    list.path("metadata").path("resourceVersion").asText("");
                            handler.listed(items, lastResourceVersion);
                            watch();
                        });
    }

    private void watch() {
        if (stopped) {
            return;
        }
        ListOptions o =
                options.withResourceVersion(lastResourceVersion)
                        .withBookmarks(true)
                        .withTimeoutSeconds(watchTimeoutSeconds);
        current =
                client.watch(
                        collectionPath,
                        o,
                        new WatchListener() {
                            private ApiError errorEvent;

                            @Override
                            public void onEvent(WatchEvent e) {
                                if (e.isError()) {
                                    errorEvent = e.error();
                                    current.stop();
                                    ended(Optional.of(errorEvent));
                                    return;
                                }
                                String rv = e.resourceVersion();
                                if (!rv.isEmpty()) {
                                    lastResourceVersion = rv;
                                }
                                if (!e.isBookmark()) {
                                    handler.event(e);
                                }
                            }

                            @Override
                            public void onClosed(Optional<ApiError> error) {
                                ended(error);
                            }
                        });
    }

    private void ended(Optional<ApiError> error) {
        if (stopped) {
            return;
        }
        switch (afterWatch(error)) {
            case RESUME -> {
                recovered();
                watch();
            }
            case RELIST -> {
                LOG.info("watch of {} answered {}: listing again", what, error.get());
                list();
            }
            case RESUME_AFTER_BACKOFF -> failed("watch", error.get(), this::watch);
        }
    }

    private synchronized void failed(String op, ApiError error, Runnable retry) {
        backoff = backoff.failed();
        if (backoff.firstOfStreak()) {
            LOG.warn("{} of {} failed, retrying with back-off: {}", op, what, error);
        }
        if (!stopped) {
            scheduler.schedule(retry, backoff.delay().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private synchronized void recovered() {
        if (backoff.failures() > 0) {
            LOG.info("{} reachable again after {} failed attempts", what, backoff.failures());
        }
        backoff = backoff.succeeded();
    }
}
