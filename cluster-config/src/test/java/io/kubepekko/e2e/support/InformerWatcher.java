package io.kubepekko.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client-go informer's list-and-watch loop against one server, on a thread of its own: list,
 * watch from the list's resourceVersion, and on a 410 ERROR event or an ended stream list again and
 * go on. It keeps the objects' state ({@code name -> resourceVersion}) and, per watch session, the
 * events in the order they came, so a test can check that every session's events were strictly
 * increasing and that the state it ends with is the server's.
 */
public final class InformerWatcher implements AutoCloseable {
    private static final Duration RETRY_PAUSE = Duration.ofMillis(200);

    /** One watch event as received: {@code type} ADDED, MODIFIED or DELETED. */
    public record Event(String type, String name, long resourceVersion) {
        @Override
        public String toString() {
            return type + " " + name + "@" + resourceVersion;
        }
    }

    private final ApiCalls api;
    private final String baseUrl;
    private final String path;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicReference<Flow.Subscription> current = new AtomicReference<>();

    // Guarded by this.
    private final Map<String, Long> state = new HashMap<>();
    private final List<List<Event>> sessions = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final List<String> incidents = new ArrayList<>();
    private int lists;

    private InformerWatcher(ApiCalls api, String baseUrl, String path) {
        this.api = api;
        this.baseUrl = baseUrl;
        this.path = path;
        this.thread = new Thread(this::run, "informer " + baseUrl + path);
        this.thread.setDaemon(true);
    }

    /**
     * Starts watching the collection at {@code path} (e.g. {@code
     * /api/v1/namespaces/x/configmaps}).
     */
    public static InformerWatcher start(ApiCalls api, String baseUrl, String path) {
        InformerWatcher watcher = new InformerWatcher(api, baseUrl, path);
        watcher.thread.start();
        return watcher;
    }

    /** The objects as this informer sees them: name to resourceVersion. */
    public synchronized Map<String, Long> state() {
        return Map.copyOf(state);
    }

    /** Each watch session's events, in arrival order. */
    public synchronized List<List<Event>> sessions() {
        return sessions.stream().map(List::copyOf).toList();
    }

    /**
     * Events that did not come in strictly increasing resourceVersion order within their session.
     */
    public synchronized List<String> orderViolations() {
        return List.copyOf(violations);
    }

    /** Failed lists, 410s and ended streams, for failure messages and the report. */
    public synchronized List<String> incidents() {
        return List.copyOf(incidents);
    }

    /** How many successful lists so far. */
    public synchronized int lists() {
        return lists;
    }

    private void run() {
        while (stopped.getCount() > 0) {
            ApiCalls.Reply list = api.get(baseUrl, path);
            if (list.status() != 200) {
                incident("list failed: " + list);
                pause();
                continue;
            }
            JsonNode body = list.json();
            long listRv = Long.parseLong(body.path("metadata").path("resourceVersion").asText());
            synchronized (this) {
                state.clear();
                for (JsonNode item : body.path("items")) {
                    state.put(
                            item.path("metadata").path("name").asText(),
                            Long.parseLong(item.path("metadata").path("resourceVersion").asText()));
                }
                lists++;
            }
            String outcome = watch(listRv);
            incident("watch from " + listRv + " ended: " + outcome);
        }
    }

    /** One watch session from {@code fromRv}; returns why it ended. */
    private String watch(long fromRv) {
        List<Event> events;
        synchronized (this) {
            events = new ArrayList<>();
            sessions.add(events);
        }
        Session session = new Session(events, fromRv);
        HttpRequest request =
                HttpRequest.newBuilder(
                                URI.create(
                                        baseUrl + path + "?watch=true&resourceVersion=" + fromRv))
                        .timeout(Duration.ofSeconds(30))
                        .header("Accept", "application/json")
                        .GET()
                        .build();
        CompletableFuture<HttpResponse<Void>> response =
                api.client()
                        .sendAsync(
                                request,
                                info -> {
                                    session.status = info.statusCode();
                                    return HttpResponse.BodySubscribers.fromLineSubscriber(session);
                                });
        response.whenComplete(
                (r, e) -> session.ended.complete(e == null ? "stream closed" : "failed: " + e));
        try {
            while (true) {
                try {
                    String end = session.ended.get(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
                    if (session.status != 200 && session.status != 0) {
                        pause();
                        return "status " + session.status + " " + end;
                    }
                    return end;
                } catch (TimeoutException e) {
                    if (stopped.getCount() == 0) {
                        Flow.Subscription s = current.get();
                        if (s != null) {
                            s.cancel();
                        }
                        response.cancel(true);
                        return "stopped";
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException e) {
            return "failed: " + e.getCause();
        }
    }

    /** Waits a little before trying again, returning at once when the watcher is closed. */
    private void pause() {
        try {
            stopped.await(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void incident(String what) {
        incidents.add(what);
    }

    private synchronized void apply(List<Event> events, Event event, long previous) {
        if (event.resourceVersion() <= previous) {
            violations.add(
                    "session "
                            + sessions.indexOf(events)
                            + ": "
                            + event
                            + " after resourceVersion "
                            + previous);
        }
        events.add(event);
        if (event.type().equals("DELETED")) {
            state.remove(event.name());
        } else {
            state.put(event.name(), event.resourceVersion());
        }
    }

    /** Receives one watch stream's lines. */
    private final class Session implements Flow.Subscriber<String> {
        final CompletableFuture<String> ended = new CompletableFuture<>();
        final List<Event> events;
        volatile int status;
        private long previous;
        private Flow.Subscription subscription;

        Session(List<Event> events, long fromRv) {
            this.events = events;
            this.previous = fromRv;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            current.set(s);
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (line.isBlank() || ended.isDone()) {
                return;
            }
            if (status != 200) {
                ended.complete("error body: " + line);
                return;
            }
            JsonNode event;
            try {
                event = ApiCalls.JSON.readTree(line);
            } catch (IOException e) {
                ended.complete("unparsable line: " + line);
                subscription.cancel();
                return;
            }
            String type = event.path("type").asText();
            JsonNode meta = event.path("object").path("metadata");
            switch (type) {
                case "ADDED", "MODIFIED", "DELETED" -> {
                    Event e =
                            new Event(
                                    type,
                                    meta.path("name").asText(),
                                    Long.parseLong(meta.path("resourceVersion").asText()));
                    apply(events, e, previous);
                    previous = Math.max(previous, e.resourceVersion());
                }
                case "BOOKMARK" ->
                        previous =
                                Math.max(
                                        previous,
                                        Long.parseLong(meta.path("resourceVersion").asText()));
                default -> {
                    ended.complete(
                            "ERROR event "
                                    + event.path("object").path("code").asText()
                                    + " "
                                    + event.path("object").path("message").asText());
                    subscription.cancel();
                }
            }
        }

        @Override
        public void onError(Throwable t) {
            ended.complete("stream failed: " + t);
        }

        @Override
        public void onComplete() {
            ended.complete("stream closed");
        }
    }

    /** Stops the loop and its open watch; returns once the thread has ended. */
    @Override
    public void close() {
        stopped.countDown();
        Flow.Subscription s = current.get();
        if (s != null) {
            s.cancel();
        }
        try {
            thread.join(Duration.ofSeconds(60).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "informer on " + baseUrl + path;
    }
}
