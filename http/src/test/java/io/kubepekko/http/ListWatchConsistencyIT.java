package io.kubepekko.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A seeded, randomized run of concurrent writers, watchers and informer-style clients against one
 * server, checking SPEC's list/watch guarantees against the history of acknowledged writes:
 *
 * <ul>
 *   <li>a watcher started at any resourceVersion it was given, with any selector, receives exactly
 *       the committed changes after it as its selection sees them, in strictly increasing order,
 *       with no gap and no duplicate;
 *   <li>every list (whole or paged) equals a replay of the history up to its resourceVersion;
 *   <li>a client that lists, watches, disconnects at random and resumes from the last version it
 *       saw (from the window, from the journal beyond it, or relisting on 410) ends with exactly
 *       the final state.
 * </ul>
 *
 * <p>Every object carries a finalizer, so a deletion is two acknowledged writes with known versions
 * (the delete that marks it, the update that removes the finalizer and with it the object). Each
 * writer owns its object names, so it always knows their state; the collections are shared. The
 * seed is printed and can be replayed with {@code -Dconsistency.seed=N}.
 */
class ListWatchConsistencyIT {

    private static final List<String> RESOURCES = List.of("configmaps", "secrets");
    private static final List<String> NAMESPACES = List.of("ns0", "ns1", "ns2");
    private static final List<String> APPS = List.of("a", "b", "c", "");
    private static final List<String> SELECTORS =
            List.of("", "app=a", "app in (a,b)", "!app", "app!=b");
    private static final int WRITERS = 4;
    private static final int OPS_PER_WRITER = 200;
    private static final int NAMES_PER_WRITER = 6;
    private static final String FINALIZER = "example.com/keep";

    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        // A small window, so that informers resuming after a pause read the journal (from frequent
        // checkpoints), and a small journal read limit, so that a long pause means 410 and a
        // relist.
        api =
                TestApiServer.start(
                        s ->
                                s.withConfig(
                                        "kubepekko.watch { max-events = 100, bookmark-interval = 1s, "
                                                + "wait-limit = 2s, max-history-events = 60, checkpoint-interval = 1s, checkpoint-margin = 1s }"));
        for (String ns : NAMESPACES) {
            api.create(
                    "/api/v1/namespaces",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                            + ns
                            + "\"}}");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    // ---------------------------------------------------------------- the history of acknowledged
    // writes

    /** One acknowledged change. */
    record Change(long rv, String type, String key, ObjectNode object) {}

    /** What a client must see: the event type, the object's key and the version. */
    record Seen(String type, String key, long rv) {
        @Override
        public String toString() {
            return type + " " + key + "@" + rv;
        }
    }

    /** Acknowledged changes per resource, recorded by the writers as the server answers them. */
    static final class History {
        private final Map<String, TreeMap<Long, Change>> changes = new HashMap<>();
        private int count;

        synchronized void record(String resource, Change c) {
            Change before =
                    changes.computeIfAbsent(resource, r -> new TreeMap<>()).putIfAbsent(c.rv(), c);
            if (before != null && !before.key().equals(c.key())) {
                throw new AssertionError(
                        "two changes at resourceVersion " + c.rv() + ": " + before + " and " + c);
            }
            if (before == null) {
                count++;
            }
        }

        synchronized int count() {
            return count;
        }

        synchronized List<Change> of(String resource) {
            return new ArrayList<>(changes.getOrDefault(resource, new TreeMap<>()).values());
        }

        /** A recent acknowledged version of {@code resource} (0 if none yet). */
        synchronized long recentVersion(String resource, Random random, int among) {
            TreeMap<Long, Change> all = changes.get(resource);
            if (all == null || all.isEmpty()) {
                return 0;
            }
            List<Long> tail =
                    new ArrayList<>(all.descendingKeySet()).subList(0, Math.min(among, all.size()));
            return tail.get(random.nextInt(tail.size()));
        }

        synchronized long latest(String resource) {
            TreeMap<Long, Change> all = changes.get(resource);
            return all == null || all.isEmpty() ? 0 : all.lastKey();
        }
    }

    /** The objects at {@code rv} (key to object), replaying the history. */
    static Map<String, ObjectNode> stateAt(List<Change> history, long rv) {
        Map<String, ObjectNode> state = new TreeMap<>();
        for (Change c : history) {
            if (c.rv() > rv) {
                break;
            }
            if (c.type().equals("DELETED")) {
                state.remove(c.key());
            } else {
                state.put(c.key(), c.object());
            }
        }
        return state;
    }

    /** What a watcher from {@code after} with {@code selects} sees of the history, in order. */
    static List<Seen> deliveries(List<Change> history, long after, Predicate<ObjectNode> selects) {
        Map<String, ObjectNode> state = new HashMap<>();
        List<Seen> out = new ArrayList<>();
        for (Change c : history) {
            ObjectNode before = state.get(c.key());
            boolean deleted = c.type().equals("DELETED");
            if (deleted) {
                state.remove(c.key());
            } else {
                state.put(c.key(), c.object());
            }
            if (c.rv() <= after) {
                continue;
            }
            boolean matchedBefore = before != null && selects.test(before);
            boolean matchesAfter = !deleted && selects.test(c.object());
            if (matchesAfter) {
                out.add(new Seen(matchedBefore ? "MODIFIED" : "ADDED", c.key(), c.rv()));
            } else if (matchedBefore) {
                out.add(new Seen("DELETED", c.key(), c.rv()));
            }
        }
        return out;
    }

    /** The label selectors this test uses, evaluated as Kubernetes does. */
    static Predicate<ObjectNode> selector(String selector, String namespace) {
        Predicate<ObjectNode> labels =
                switch (selector) {
                    case "" -> o -> true;
                    case "app=a" -> o -> "a".equals(app(o));
                    case "app in (a,b)" -> o -> "a".equals(app(o)) || "b".equals(app(o));
                    case "!app" -> o -> app(o) == null;
                    case "app!=b" -> o -> !"b".equals(app(o));
                    default -> throw new IllegalArgumentException(selector);
                };
        return namespace == null
                ? labels
                : labels.and(o -> namespace.equals(o.path("metadata").path("namespace").asText()));
    }

    private static String app(ObjectNode o) {
        JsonNode v = o.path("metadata").path("labels").get("app");
        return v == null ? null : v.asText();
    }

    static String key(JsonNode object) {
        JsonNode m = object.path("metadata");
        return m.path("namespace").asText() + "/" + m.path("name").asText();
    }

    static long rv(JsonNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }

    private static String path(String resource, String namespace) {
        return namespace == null
                ? "/api/v1/" + resource
                : "/api/v1/namespaces/" + namespace + "/" + resource;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- writers

    /** One writer: its own object names across the shared collections, each in a known state. */
    static final class Writer implements Runnable {
        private enum State {
            ABSENT,
            LIVE,
            TERMINATING
        }

        private final int id;
        private final Random random;
        private final History history;
        private final Map<String, State> states = new HashMap<>();

        Writer(int id, long seed, History history) {
            this.id = id;
            this.random = new Random(seed);
            this.history = history;
        }

        @Override
        public void run() {
            for (int op = 0; op < OPS_PER_WRITER; op++) {
                String resource = RESOURCES.get(random.nextInt(RESOURCES.size()));
                String ns = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
                String name = "w" + id + "-n" + random.nextInt(NAMES_PER_WRITER);
                String k = resource + "|" + ns + "/" + name;
                State state = states.getOrDefault(k, State.ABSENT);
                String item = path(resource, ns) + "/" + name;
                switch (state) {
                    case ABSENT -> {
                        Response r =
                                api.post(path(resource, ns), body(resource, name, randomApp()));
                        record(resource, "ADDED", r.assertCode(201));
                        states.put(k, State.LIVE);
                    }
                    case LIVE -> {
                        if (random.nextInt(10) < 6) {
                            record(resource, "MODIFIED", relabel(item));
                        } else {
                            record(resource, "MODIFIED", api.delete(item).assertCode(200));
                            states.put(k, State.TERMINATING);
                        }
                    }
                    case TERMINATING -> {
                        if (random.nextInt(10) < 3) {
                            record(resource, "MODIFIED", relabel(item));
                        } else {
                            Response r =
                                    api.patch(
                                            item,
                                            "application/merge-patch+json",
                                            "{\"metadata\":{\"finalizers\":null}}");
                            record(resource, "DELETED", r.assertCode(200));
                            states.put(k, State.ABSENT);
                        }
                    }
                }
            }
        }

        private Response relabel(String item) {
            String app = randomApp();
            String labels = app.isEmpty() ? "{\"app\":null}" : "{\"app\":\"" + app + "\"}";
            return api.patch(
                            item,
                            "application/merge-patch+json",
                            "{\"metadata\":{\"labels\":"
                                    + labels
                                    + ",\"annotations\":{\"n\":\""
                                    + random.nextInt()
                                    + "\"}}}")
                    .assertCode(200);
        }

        private String randomApp() {
            return APPS.get(random.nextInt(APPS.size()));
        }

        private void record(String resource, String type, Response r) {
            ObjectNode o = r.json();
            history.record(resource, new Change(rv(o), type, key(o), o));
        }

        private static String body(String resource, String name, String app) {
            String labels = app.isEmpty() ? "{}" : "{\"app\":\"" + app + "\"}";
            String kind = resource.equals("configmaps") ? "ConfigMap" : "Secret";
            return "{\"apiVersion\":\"v1\",\"kind\":\""
                    + kind
                    + "\",\"metadata\":{\"name\":\""
                    + name
                    + "\",\"labels\":"
                    + labels
                    + ",\"finalizers\":[\""
                    + FINALIZER
                    + "\"]},\"data\":{}}";
        }
    }

    // ---------------------------------------------------------------- readers

    /**
     * A list, whole or paged, checked to be one snapshot: every page at the first page's version.
     */
    record Listed(long rv, Map<String, ObjectNode> items) {}

    static Listed list(String resource, String namespace, String selector, int limit) {
        Map<String, ObjectNode> items = new TreeMap<>();
        String base = path(resource, namespace) + "?labelSelector=" + enc(selector);
        String continueToken = null;
        long rv = -1;
        do {
            String url =
                    base
                            + (limit > 0 ? "&limit=" + limit : "")
                            + (continueToken != null ? "&continue=" + enc(continueToken) : "");
            ObjectNode page = api.get(url).assertCode(200).json();
            long pageRv = rv(page);
            if (rv >= 0) {
                assertEquals(rv, pageRv, "every page reports the first page's resourceVersion");
            }
            rv = pageRv;
            for (JsonNode item : page.path("items")) {
                ObjectNode previous = items.put(key(item), (ObjectNode) item);
                assertTrue(previous == null, "an item twice in one list: " + key(item));
            }
            String next = page.path("metadata").path("continue").asText("");
            continueToken = next.isEmpty() ? null : next;
        } while (continueToken != null);
        return new Listed(rv, items);
    }

    /** A list result checked later against the history. */
    record ListCheck(String resource, String namespace, String selector, Listed listed) {}

    /**
     * Reads a watch until the predicate holds on what it received (events and bookmarks), or it
     * ends.
     */
    static List<ObjectNode> read(
            WatchClient w, Predicate<List<ObjectNode>> enough, Duration within) {
        return read(w, enough, within, "");
    }

    static List<ObjectNode> read(
            WatchClient w, Predicate<List<ObjectNode>> enough, Duration within, String what) {
        List<ObjectNode> got = new ArrayList<>();
        long deadline = System.nanoTime() + within.toNanos();
        while (!enough.test(got)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                fail(
                        what
                                + ": watch did not reach its goal in "
                                + within
                                + "; received "
                                + got.size()
                                + " events: "
                                + got.stream().map(WatchClient::describe).toList());
            }
            // Short polls: the goal may also be reached by the writers finishing, without any
            // event.
            ObjectNode e =
                    w.poll(Duration.ofMillis(Math.min(200, Math.max(1, left / 1_000_000))), true);
            if (e == null) {
                continue;
            }
            got.add(e);
            if (e.path("type").asText().equals("ERROR")) {
                break;
            }
        }
        return got;
    }

    static List<Seen> changesIn(List<ObjectNode> events) {
        List<Seen> out = new ArrayList<>();
        for (ObjectNode e : events) {
            String type = e.path("type").asText();
            if (type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED")) {
                out.add(new Seen(type, key(e.path("object")), rv(e.path("object"))));
            }
        }
        return out;
    }

    static long lastVersion(List<ObjectNode> events, long otherwise) {
        long v = otherwise;
        for (ObjectNode e : events) {
            if (!e.path("type").asText().equals("ERROR")) {
                v = Math.max(v, rv(e.path("object")));
            }
        }
        return v;
    }

    /** A watcher started mid-run at a recent acknowledged version with a random selection. */
    record WatchPlan(
            String resource, String namespace, String selector, long from, WatchClient client) {}

    /**
     * An informer: list, then watch; disconnects at random, resumes from what it saw, relists on
     * 410.
     */
    static final class Informer implements Runnable {
        final String resource;
        final String namespace;
        final String selector;
        private final Random random;
        private final History history;
        private final List<ListCheck> lists;
        private final AtomicBoolean writersDone;
        final Map<String, ObjectNode> cache = new TreeMap<>();
        long seenUpTo;
        int relists;
        int resumes;

        Informer(long seed, History history, List<ListCheck> lists, AtomicBoolean done) {
            this.random = new Random(seed);
            this.resource = RESOURCES.get(random.nextInt(RESOURCES.size()));
            this.namespace =
                    random.nextBoolean() ? null : NAMESPACES.get(random.nextInt(NAMESPACES.size()));
            this.selector = SELECTORS.get(random.nextInt(SELECTORS.size()));
            this.history = history;
            this.lists = lists;
            this.writersDone = done;
        }

        @Override
        public void run() {
            relist();
            while (!writersDone.get()) {
                String url =
                        path(resource, namespace)
                                + "?watch=true&allowWatchBookmarks=true&labelSelector="
                                + enc(selector)
                                + "&resourceVersion="
                                + seenUpTo;
                int take = 1 + random.nextInt(15);
                try (WatchClient w = WatchClient.open(api.url(), url)) {
                    assertEquals(200, w.code());
                    List<ObjectNode> got =
                            read(
                                    w,
                                    l ->
                                            changesIn(l).size() >= take
                                                    || writersDone.get()
                                                            && lastVersion(l, seenUpTo)
                                                                    >= history.latest(resource),
                                    Duration.ofSeconds(60),
                                    url + " latest " + resource + " " + history.latest(resource));
                    if (!got.isEmpty()
                            && got.get(got.size() - 1).path("type").asText().equals("ERROR")) {
                        assertEquals(
                                410,
                                got.get(got.size() - 1).path("object").path("code").asInt(),
                                got.get(got.size() - 1).toString());
                        check(got.subList(0, got.size() - 1));
                        relist();
                        continue;
                    }
                    check(got);
                }
                resumes++;
                // Away for a while: until the writers have made some more changes (or finished).
                int target = history.count() + 20 + random.nextInt(600);
                await().atMost(Duration.ofSeconds(120))
                        .until(() -> history.count() >= target || writersDone.get());
            }
            // Catch up with everything after the writers finished.
            String url =
                    path(resource, namespace)
                            + "?watch=true&allowWatchBookmarks=true&labelSelector="
                            + enc(selector)
                            + "&resourceVersion="
                            + seenUpTo;
            try (WatchClient w = WatchClient.open(api.url(), url)) {
                long end = history.latest(resource);
                List<ObjectNode> got =
                        read(w, l -> lastVersion(l, seenUpTo) >= end, Duration.ofSeconds(60));
                if (!got.isEmpty()
                        && got.get(got.size() - 1).path("type").asText().equals("ERROR")) {
                    relist();
                } else {
                    check(got);
                }
            }
        }

        private void relist() {
            int limit = random.nextBoolean() ? 0 : 1 + random.nextInt(5);
            Listed l = list(resource, namespace, selector, limit);
            synchronized (lists) {
                lists.add(new ListCheck(resource, namespace, selector, l));
            }
            cache.clear();
            cache.putAll(l.items());
            seenUpTo = l.rv();
            relists++;
        }

        /**
         * One watch session: where it started and the changes it received (checked once the history
         * is complete).
         */
        record Session(long from, List<Seen> received) {}

        final List<Session> sessions = new ArrayList<>();

        /**
         * Applies a session's events and remembers how far it got. An event may arrive before its
         * writer has recorded the acknowledgement, so sessions are checked after the run.
         */
        private void check(List<ObjectNode> events) {
            sessions.add(new Session(seenUpTo, changesIn(events)));
            for (ObjectNode e : events) {
                ObjectNode o = (ObjectNode) e.path("object");
                switch (e.path("type").asText()) {
                    case "ADDED", "MODIFIED" -> cache.put(key(o), o);
                    case "DELETED" -> cache.remove(key(o));
                    default -> {}
                }
            }
            seenUpTo = lastVersion(events, seenUpTo);
        }
    }

    // ---------------------------------------------------------------- the run

    @Test
    void watchersListsAndInformersAgreeWithTheHistoryOfAcknowledgedWrites() throws Exception {
        long seed = Long.getLong("consistency.seed", System.nanoTime());
        System.out.println(
                "ListWatchConsistencyIT seed: "
                        + seed
                        + " (replay with -Dconsistency.seed="
                        + seed
                        + ")");
        Random random = new Random(seed);
        History history = new History();
        List<ListCheck> lists = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean writersDone = new AtomicBoolean();

        ExecutorService pool = Executors.newCachedThreadPool();
        List<WatchPlan> watchers = new ArrayList<>();
        List<Informer> informers = new ArrayList<>();
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                writers.add(pool.submit(new Writer(i, random.nextLong(), history)));
            }
            List<Future<?>> informerRuns = new ArrayList<>();
            for (int i = 0; i < Integer.getInteger("consistency.informers", 3); i++) {
                Informer informer = new Informer(random.nextLong(), history, lists, writersDone);
                informers.add(informer);
                informerRuns.add(pool.submit(informer));
            }
            // Watchers and plain lists start while the writers run, each once some history exists.
            for (int i = 0; i < 8; i++) {
                int target = (i + 1) * WRITERS * OPS_PER_WRITER / 12;
                await().atMost(Duration.ofSeconds(120))
                        .until(() -> history.count() >= target || allDone(writers));
                String resource = RESOURCES.get(random.nextInt(RESOURCES.size()));
                String ns =
                        random.nextBoolean()
                                ? null
                                : NAMESPACES.get(random.nextInt(NAMESPACES.size()));
                String selector = SELECTORS.get(random.nextInt(SELECTORS.size()));
                long from = history.recentVersion(resource, random, 40);
                watchers.add(
                        new WatchPlan(
                                resource,
                                ns,
                                selector,
                                from,
                                WatchClient.open(
                                        api.url(),
                                        path(resource, ns)
                                                + "?watch=true&allowWatchBookmarks=true&labelSelector="
                                                + enc(selector)
                                                + "&resourceVersion="
                                                + from)));
                lists.add(
                        new ListCheck(
                                resource,
                                ns,
                                selector,
                                list(
                                        resource,
                                        ns,
                                        selector,
                                        random.nextBoolean() ? 0 : 1 + random.nextInt(4))));
            }
            for (Future<?> w : writers) {
                w.get(5, TimeUnit.MINUTES);
            }
            writersDone.set(true);
            for (Future<?> i : informerRuns) {
                i.get(5, TimeUnit.MINUTES);
            }

            // Every watcher saw exactly the history after its start, as its selection sees it.
            for (WatchPlan p : watchers) {
                try (WatchClient w = p.client()) {
                    assertEquals(200, w.code());
                    long end = history.latest(p.resource());
                    List<ObjectNode> got =
                            read(
                                    w,
                                    l -> lastVersion(l, 0) >= end,
                                    Duration.ofSeconds(60),
                                    "watcher "
                                            + p.resource()
                                            + " ns="
                                            + p.namespace()
                                            + " sel='"
                                            + p.selector()
                                            + "' from "
                                            + p.from()
                                            + " end "
                                            + end);
                    List<Seen> expected =
                            deliveries(
                                    history.of(p.resource()),
                                    p.from(),
                                    selector(p.selector(), p.namespace()));
                    assertEquals(
                            expected,
                            changesIn(got),
                            "watcher of "
                                    + p.resource()
                                    + " ns="
                                    + p.namespace()
                                    + " selector='"
                                    + p.selector()
                                    + "' from "
                                    + p.from());
                    assertStrictlyIncreasing(changesIn(got));
                }
            }
            // Every list is the history replayed up to its version.
            for (ListCheck c : lists) {
                Map<String, ObjectNode> expected = new TreeMap<>();
                Predicate<ObjectNode> selects = selector(c.selector(), c.namespace());
                stateAt(history.of(c.resource()), c.listed().rv())
                        .forEach(
                                (k, o) -> {
                                    if (selects.test(o)) {
                                        expected.put(k, o);
                                    }
                                });
                assertEquals(
                        expected.keySet(),
                        c.listed().items().keySet(),
                        "list of "
                                + c.resource()
                                + " at "
                                + c.listed().rv()
                                + " ns="
                                + c.namespace()
                                + " selector='"
                                + c.selector()
                                + "'");
                expected.forEach((k, o) -> assertEquals(o, c.listed().items().get(k), "item " + k));
            }
            // Informers received, in each session, exactly the history after where they resumed.
            for (Informer inf : informers) {
                for (Informer.Session session : inf.sessions) {
                    List<Seen> expected =
                            deliveries(
                                    history.of(inf.resource),
                                    session.from(),
                                    selector(inf.selector, inf.namespace));
                    List<Seen> got = session.received();
                    assertEquals(
                            expected.subList(0, Math.min(got.size(), expected.size())),
                            got,
                            "informer "
                                    + inf.resource
                                    + " ns="
                                    + inf.namespace
                                    + " selector='"
                                    + inf.selector
                                    + "' from "
                                    + session.from());
                }
            }
            // Informers end with exactly the final state.
            for (Informer inf : informers) {
                Map<String, ObjectNode> expected = new TreeMap<>();
                Predicate<ObjectNode> selects = selector(inf.selector, inf.namespace);
                stateAt(history.of(inf.resource), Long.MAX_VALUE)
                        .forEach(
                                (k, o) -> {
                                    if (selects.test(o)) {
                                        expected.put(k, o);
                                    }
                                });
                assertEquals(
                        expected,
                        inf.cache,
                        "informer's final cache of "
                                + inf.resource
                                + " ns="
                                + inf.namespace
                                + " selector='"
                                + inf.selector
                                + "'");
            }
            int resumes = informers.stream().mapToInt(i -> i.resumes).sum();
            int relists = informers.stream().mapToInt(i -> i.relists).sum();
            System.out.println(
                    "ListWatchConsistencyIT: "
                            + history.count()
                            + " changes, "
                            + watchers.size()
                            + " watchers, "
                            + lists.size()
                            + " lists, informers resumed "
                            + resumes
                            + "x and relisted "
                            + relists
                            + "x");
            assertTrue(
                    history.count() >= WRITERS * OPS_PER_WRITER,
                    "every operation is one acknowledged change");
        } finally {
            watchers.forEach(p -> p.client().close());
            pool.shutdownNow();
        }
    }

    private static boolean allDone(List<Future<?>> futures) {
        return futures.stream().allMatch(Future::isDone);
    }

    private static void assertStrictlyIncreasing(List<Seen> events) {
        for (int i = 1; i < events.size(); i++) {
            assertTrue(
                    events.get(i).rv() > events.get(i - 1).rv(),
                    "out of order: " + events.get(i - 1) + " then " + events.get(i));
        }
    }

    @SuppressWarnings("unused")
    private static ObjectNode parse(String json) {
        return Json.parseTrusted(json.getBytes(StandardCharsets.UTF_8));
    }
}
