package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.server.ReadFlags;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lists and watches over HTTP: every cell of SPEC's list, get and watch resourceVersion tables,
 * paging, WatchList, bookmarks, selectors, timeouts and the errors kube-apiserver answers.
 */
class ListWatchIT {

    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s ->
                            s.withReads(
                                            new ReadFlags(
                                                    Duration.ofMinutes(5),
                                                    Duration.ofSeconds(2),
                                                    Duration.ofMinutes(5),
                                                    s.reads().featureGates()))
                                    .withConfig(
                                            "kubepekko.watch { wait-limit = 500ms, bookmark-interval = 1s }"));

    private static String newNamespace() {
        String ns = "lw-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String cms(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static ObjectNode createCm(String ns, String name, String app) {
        return api.create(
                cms(ns),
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "','labels':{'app':'"
                                + app
                                + "'}},'data':{'k':'v'}}"));
    }

    private static ObjectNode relabel(String ns, String name, String app) {
        Response r =
                api.patch(
                        cms(ns) + "/" + name,
                        "application/merge-patch+json",
                        json("{'metadata':{'labels':{'app':'" + app + "'}}}"));
        r.assertCode(200);
        return r.json();
    }

    /**
     * Lists at "Any" until {@code done} holds: such a read may be served by a cache a moment behind
     * a write just acknowledged (on a cluster, the next request goes to another node, whose cache
     * hears of the write a little later), as Kubernetes allows.
     */
    private static ObjectNode anyReadUntil(String pathAndQuery, Predicate<ObjectNode> done) {
        return await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .alias("an Any read of " + pathAndQuery + " that has caught up")
                .until(() -> api.get(pathAndQuery).assertCode(200).json(), done);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static WatchClient watch(String pathAndQuery) {
        WatchClient w = WatchClient.open(api.url(), pathAndQuery);
        assertEquals(200, w.code(), "a watch answers 200");
        return w;
    }

    @Nested
    class Lists {
        @Test
        void aListWithoutResourceVersionReflectsEveryAcknowledgedWrite() {
            String ns = newNamespace();
            for (int i = 0; i < 20; i++) {
                ObjectNode created = createCm(ns, "c" + i, "web");
                ObjectNode list = api.get(cms(ns)).assertCode(200).json();
                assertEquals(
                        i + 1,
                        list.path("items").size(),
                        "the list must contain every acknowledged create");
                assertTrue(
                        rv(list) >= rv(created),
                        "the list's resourceVersion is at least the write's");
            }
        }

        @Test
        void resourceVersionZeroIsServedWholeIgnoringLimit() {
            String ns = newNamespace();
            createCm(ns, "a", "web");
            createCm(ns, "b", "web");
            // "Any" may come from a cache a moment behind the write (another node's, on a cluster):
            // read
            // until it has caught up. With the limit honoured no list would hold both.
            ObjectNode list =
                    anyReadUntil(
                            cms(ns) + "?resourceVersion=0&limit=1",
                            l -> l.path("items").size() >= 2);
            assertEquals(List.of("a", "b"), itemNames(list));
            assertFalse(list.path("metadata").has("continue"));
        }

        @Test
        void notOlderThanAVersionTheServerHasIsServedAtOnce() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            ObjectNode list = api.get(cms(ns) + "?resourceVersion=" + rv(a)).assertCode(200).json();
            assertTrue(rv(list) >= rv(a));
            assertEquals(List.of("a"), itemNames(list));
            ObjectNode matched =
                    api.get(
                                    cms(ns)
                                            + "?resourceVersionMatch=NotOlderThan&resourceVersion="
                                            + rv(a)
                                            + "&limit=10")
                            .assertCode(200)
                            .json();
            assertEquals(List.of("a"), itemNames(matched));
        }

        @Test
        void aVersionTheServerHasNotReachedAnswers504WithRetryAfter() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            long future = rv(a) + 1_000_000;
            Response r = api.get(cms(ns) + "?resourceVersion=" + future);
            ObjectNode status = r.assertFailure(504, "Timeout");
            assertTrue(
                    status.path("message")
                            .asText()
                            .startsWith(
                                    "Timeout: Too large resource version: "
                                            + future
                                            + ", current: "),
                    status.toString());
            assertEquals(
                    "ResourceVersionTooLarge",
                    status.path("details").path("causes").path(0).path("reason").asText());
            assertEquals("1", r.header("Retry-After").orElse(""));
            assertEquals(1, status.path("details").path("retryAfterSeconds").asInt());
            api.get(cms(ns) + "?resourceVersion=" + future + "&resourceVersionMatch=Exact")
                    .assertFailure(504, "Timeout");
        }

        @Test
        void aPagedListAtAVersionIsExactlyThatVersion() {
            String ns = newNamespace();
            createCm(ns, "a", "web");
            ObjectNode b = createCm(ns, "b", "web");
            createCm(ns, "c", "web");
            api.delete(cms(ns) + "/a").assertCode(200);

            ObjectNode paged =
                    api.get(cms(ns) + "?limit=10&resourceVersion=" + rv(b)).assertCode(200).json();
            assertEquals(rv(b), rv(paged), "limit with a version: Exact");
            assertEquals(List.of("a", "b"), itemNames(paged));

            ObjectNode exact =
                    api.get(cms(ns) + "?resourceVersionMatch=Exact&resourceVersion=" + rv(b))
                            .assertCode(200)
                            .json();
            assertEquals(rv(b), rv(exact));
            assertEquals(List.of("a", "b"), itemNames(exact));
        }

        @Test
        void pagesShareTheFirstPagesSnapshotAndCountWhatRemains() {
            String ns = newNamespace();
            for (String n : List.of("a", "b", "c", "d", "e")) {
                createCm(ns, n, "web");
            }
            ObjectNode first = api.get(cms(ns) + "?limit=2").assertCode(200).json();
            assertEquals(List.of("a", "b"), itemNames(first));
            assertEquals(3, first.path("metadata").path("remainingItemCount").asInt());
            // RemoveSelfLink is GA behaviour (its gate is removed in kube 1.35): never set
            assertFalse(first.path("metadata").has("selfLink"));
            assertFalse(first.path("items").path(0).path("metadata").has("selfLink"));
            String token = first.path("metadata").path("continue").asText();
            assertFalse(token.isEmpty());
            String decoded =
                    new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            assertTrue(decoded.contains("\"v\":\"meta.k8s.io/v1\""), decoded);

            // Changes after the first page do not show: the pages come from its snapshot.
            createCm(ns, "bb", "web");
            api.delete(cms(ns) + "/e").assertCode(200);

            ObjectNode second =
                    api.get(cms(ns) + "?limit=2&continue=" + enc(token)).assertCode(200).json();
            assertEquals(List.of("c", "d"), itemNames(second));
            assertEquals(
                    rv(first), rv(second), "every page reports the first page's resourceVersion");
            assertEquals(1, second.path("metadata").path("remainingItemCount").asInt());
            ObjectNode third =
                    api.get(
                                    cms(ns)
                                            + "?limit=2&resourceVersion=0&continue="
                                            + enc(
                                                    second.path("metadata")
                                                            .path("continue")
                                                            .asText()))
                            .assertCode(200)
                            .json();
            assertEquals(
                    List.of("e"),
                    itemNames(third),
                    "resourceVersion=0 with a token is the token's snapshot");
            assertFalse(third.path("metadata").has("continue"), "the last page has no continue");
            assertFalse(third.path("metadata").has("remainingItemCount"));
        }

        @Test
        void selectorsHideRemainingItemCount() {
            String ns = newNamespace();
            for (String n : List.of("a", "b", "c")) {
                createCm(ns, n, "web");
            }
            ObjectNode first =
                    api.get(cms(ns) + "?limit=1&labelSelector=app%3Dweb").assertCode(200).json();
            assertEquals(List.of("a"), itemNames(first));
            assertTrue(first.path("metadata").has("continue"));
            assertFalse(first.path("metadata").has("remainingItemCount"));
        }

        @Test
        void aContinueTokenWithAResourceVersionIsRefused() {
            String ns = newNamespace();
            createCm(ns, "a", "web");
            createCm(ns, "b", "web");
            ObjectNode first = api.get(cms(ns) + "?limit=1").assertCode(200).json();
            String token = enc(first.path("metadata").path("continue").asText());
            api.get(cms(ns) + "?limit=1&resourceVersion=5&continue=" + token)
                    .assertStatus(
                            400,
                            "BadRequest",
                            "specifying resource version is not allowed when using continue");
            api.get(cms(ns) + "?limit=1&continue=bogus!")
                    .assertStatusMessageStartsWith(
                            400, "BadRequest", "invalid continue token: continue key is not valid");
        }

        @Test
        void anExpiredContinueTokenAnswers410WithATokenAtTheLatestVersion() {
            String ns = newNamespace();
            createCm(ns, "a", "web");
            createCm(ns, "b", "web");
            ObjectNode first = api.get(cms(ns) + "?limit=1").assertCode(200).json();
            String token = enc(first.path("metadata").path("continue").asText());
            createCm(ns, "c", "web"); // supersedes the first page's snapshot; the TTL here is 2 s
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> api.get(cms(ns) + "?limit=1&continue=" + token).code() == 410);
            ObjectNode status =
                    api.get(cms(ns) + "?limit=1&continue=" + token).assertFailure(410, "Expired");
            assertTrue(
                    status.path("message")
                            .asText()
                            .startsWith(
                                    "The provided continue parameter is too old to display a consistent list result."));
            String fresh = status.path("metadata").path("continue").asText();
            ObjectNode rest =
                    api.get(cms(ns) + "?limit=5&continue=" + enc(fresh)).assertCode(200).json();
            assertEquals(
                    List.of("b", "c"),
                    itemNames(rest),
                    "the offered token goes on at the latest version");
        }

        @Test
        void invalidCombinationsAnswer422NamingTheParameter() {
            String ns = newNamespace();
            api.get(cms(ns) + "?resourceVersionMatch=Exact")
                    .assertStatusMessageStartsWith(
                            422,
                            "Invalid",
                            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is "
                                    + "forbidden unless resourceVersion is provided");
            api.get(cms(ns) + "?resourceVersionMatch=NotOlderThan").assertFailure(422, "Invalid");
            api.get(cms(ns) + "?resourceVersionMatch=Exact&resourceVersion=0")
                    .assertFailure(422, "Invalid");
            api.get(cms(ns) + "?resourceVersionMatch=Sometimes&resourceVersion=1")
                    .assertFailure(422, "Invalid");
            api.get(cms(ns) + "?sendInitialEvents=true").assertFailure(422, "Invalid");
        }

        @Test
        void aNotOlderThanListAtZeroIsAny() {
            String ns = newNamespace();
            createCm(ns, "a", "web");
            ObjectNode list =
                    anyReadUntil(
                            cms(ns) + "?resourceVersionMatch=NotOlderThan&resourceVersion=0",
                            l -> !l.path("items").isEmpty());
            assertEquals(List.of("a"), itemNames(list));
        }

        @Test
        void aLargeListIsStreamedWithItsLengthKnown() {
            String ns = newNamespace();
            String data = "x".repeat(2048);
            for (int i = 0; i < 200; i++) {
                api.create(
                        cms(ns),
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'big-"
                                        + i
                                        + "'},'data':{'k':'"
                                        + data
                                        + "'}}"));
            }
            Response r = api.get(cms(ns)).assertCode(200);
            assertTrue(r.body().length > Encoder.STREAM_LISTS_ABOVE, "large enough to be streamed");
            assertEquals(String.valueOf(r.body().length), r.header("Content-Length").orElse(""));
            ObjectNode list = r.json();
            assertEquals(200, list.path("items").size());
            assertEquals(
                    "big-0", list.path("items").path(0).path("metadata").path("name").asText());
            ObjectNode paged = api.get(cms(ns) + "?limit=150").assertCode(200).json();
            assertEquals(150, paged.path("items").size());
            assertEquals(50, paged.path("metadata").path("remainingItemCount").asInt());
        }

        @Test
        void allNamespacesAndClusterScopedListsComeFromTheCache() {
            String ns = newNamespace();
            createCm(ns, "x", "web");
            ObjectNode all =
                    api.get("/api/v1/configmaps?labelSelector=app%3Dweb").assertCode(200).json();
            assertTrue(itemNames(all).contains("x"));
            ObjectNode namespaces =
                    api.get("/api/v1/namespaces?fieldSelector=metadata.name%3D" + ns)
                            .assertCode(200)
                            .json();
            assertEquals(List.of(ns), itemNames(namespaces));
        }
    }

    @Nested
    class Gets {
        @Test
        void getAtZeroOrAVersionReadsTheCache() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .alias("a get at resourceVersion 0 served from a cache that has the create")
                    .until(() -> api.get(cms(ns) + "/a?resourceVersion=0").code() == 200);
            assertEquals(
                    rv(a), rv(api.get(cms(ns) + "/a?resourceVersion=0").assertCode(200).json()));
            assertEquals(
                    rv(a),
                    rv(api.get(cms(ns) + "/a?resourceVersion=" + rv(a)).assertCode(200).json()));
            api.get(cms(ns) + "/a?resourceVersion=" + (rv(a) + 1_000_000))
                    .assertFailure(504, "Timeout");
            api.get(cms(ns) + "/missing?resourceVersion=0")
                    .assertStatus(404, "NotFound", "configmaps \"missing\" not found");
        }
    }

    @Nested
    class Watches {
        @Test
        void aWatchIsAChunkedJsonStream() {
            String ns = newNamespace();
            try (WatchClient w = watch(cms(ns) + "?watch=true")) {
                assertEquals("application/json", w.headers().firstValue("Content-Type").orElse(""));
                assertEquals("chunked", w.headers().firstValue("Transfer-Encoding").orElse(""));
                createCm(ns, "a", "web");
                ObjectNode added = w.next();
                assertEquals("ADDED", added.path("type").asText());
                assertEquals("ConfigMap", added.path("object").path("kind").asText());
            }
        }

        @Test
        void withoutResourceVersionTheStateComesFirstThenChanges() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            ObjectNode b = createCm(ns, "b", "web");
            try (WatchClient w = watch(cms(ns) + "?watch=1")) {
                assertEquals(List.of("ADDED a@" + rv(a), "ADDED b@" + rv(b)), w.next(2));
                ObjectNode c = createCm(ns, "c", "web");
                assertEquals(List.of("ADDED c@" + rv(c)), w.next(1));
                ObjectNode a2 = relabel(ns, "a", "db");
                assertEquals(List.of("MODIFIED a@" + rv(a2)), w.next(1));
                Response deleted = api.delete(cms(ns) + "/b");
                ObjectNode del = w.next();
                assertEquals("DELETED", del.path("type").asText());
                assertEquals("b", del.path("object").path("metadata").path("name").asText());
                assertTrue(rv(del.path("object")) > rv(a2), "the deletion's own resourceVersion");
            }
        }

        @Test
        void atZeroTheStateComesFirstToo() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            try (WatchClient w = watch(cms(ns) + "?watch=true&resourceVersion=0")) {
                assertEquals(List.of("ADDED a@" + rv(a)), w.next(1));
            }
        }

        @Test
        void fromAVersionOnlyLaterChangesArriveInOrder() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            ObjectNode b = createCm(ns, "b", "web");
            ObjectNode a2 = relabel(ns, "a", "x");
            try (WatchClient w = watch(cms(ns) + "?watch=true&resourceVersion=" + rv(a))) {
                assertEquals(List.of("ADDED b@" + rv(b), "MODIFIED a@" + rv(a2)), w.next(2));
                ObjectNode c = createCm(ns, "c", "web");
                assertEquals(List.of("ADDED c@" + rv(c)), w.next(1));
            }
        }

        @Test
        void aWatchFromAVersionNotReachedYetWaitsForLaterChanges() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            long ahead = rv(a) + 2;
            try (WatchClient w = watch(cms(ns) + "?watch=true&resourceVersion=" + ahead)) {
                w.expectNothingFor(Duration.ofMillis(300));
                List<ObjectNode> created = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    created.add(createCm(ns, "n" + i, "web"));
                }
                ObjectNode first = w.next();
                assertTrue(
                        rv(first.path("object")) > ahead,
                        "only changes after the requested version: " + first);
            }
        }

        @Test
        void anObjectThatStopsOrStartsMatchingIsDeletedOrAdded() {
            String ns = newNamespace();
            createCm(ns, "a", "web");
            try (WatchClient w = watch(cms(ns) + "?watch=true&labelSelector=app%3Dweb")) {
                assertEquals("ADDED", w.next().path("type").asText());
                ObjectNode moved = relabel(ns, "a", "db");
                ObjectNode gone = w.next();
                assertEquals("DELETED", gone.path("type").asText());
                assertEquals(
                        rv(moved), rv(gone.path("object")), "sent at the change's resourceVersion");
                assertEquals(
                        "web",
                        gone.path("object").path("metadata").path("labels").path("app").asText(),
                        "in its last matching state, as Kubernetes sends it");
                ObjectNode back = relabel(ns, "a", "web");
                assertEquals(List.of("ADDED a@" + rv(back)), w.next(1));
                createCm(ns, "other", "db");
                relabel(ns, "a", "web2");
                assertEquals(
                        "DELETED",
                        w.next().path("type").asText(),
                        "nothing about objects it never selected");
            }
        }

        /**
         * By name on kube's deprecated {@code watch/} path, or by a field selector. A get of the
         * object's own path with {@code watch=true} is a get, as in kube-apiserver, whose item
         * route has no watch.
         */
        @Test
        void aSingleObjectIsWatchedByNameOrByFieldSelector() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            createCm(ns, "b", "web");
            String legacy = "/api/v1/watch/namespaces/" + ns + "/configmaps/a";
            ObjectNode got = api.get(cms(ns) + "/a?watch=true").assertCode(200).json();
            assertEquals("ConfigMap", got.path("kind").asText());
            assertEquals(rv(a), got.path("metadata").path("resourceVersion").asLong());
            try (WatchClient byName = watch(legacy);
                    WatchClient bySelector =
                            watch(cms(ns) + "?watch=true&fieldSelector=metadata.name%3Da")) {
                assertEquals(List.of("ADDED a@" + rv(a)), byName.next(1));
                assertEquals(List.of("ADDED a@" + rv(a)), bySelector.next(1));
                relabel(ns, "b", "x");
                ObjectNode a2 = relabel(ns, "a", "x");
                assertEquals(List.of("MODIFIED a@" + rv(a2)), byName.next(1));
                assertEquals(List.of("MODIFIED a@" + rv(a2)), bySelector.next(1));
            }
            api.get(legacy + "?fieldSelector=metadata.name%3Db")
                    .assertStatus(
                            400,
                            "BadRequest",
                            "fieldSelector metadata.name doesn't match requested name");
        }

        @Test
        void timeoutSecondsEndsTheStreamCleanly() {
            String ns = newNamespace();
            try (WatchClient w = watch(cms(ns) + "?watch=true&timeoutSeconds=1")) {
                w.expectEnd();
            }
        }

        @Test
        void watchersThatAllowBookmarksGetThemPeriodically() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            try (WatchClient w =
                    watch(
                            cms(ns)
                                    + "?watch=true&allowWatchBookmarks=true&resourceVersion="
                                    + rv(a))) {
                createCm(
                        newNamespace(),
                        "elsewhere",
                        "web"); // progress of the group-resource, not of this watch
                ObjectNode bookmark = w.next();
                assertEquals("BOOKMARK", bookmark.path("type").asText());
                ObjectNode object = (ObjectNode) bookmark.path("object");
                assertEquals("ConfigMap", object.path("kind").asText());
                assertEquals("v1", object.path("apiVersion").asText());
                assertTrue(rv(object) > rv(a));
                assertEquals(List.of("resourceVersion"), fieldNames(object.path("metadata")));
            }
        }

        @Test
        void aWatchListSendsTheStateThenTheAnnotatedBookmarkThenChanges() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            try (WatchClient w =
                    watch(
                            cms(ns)
                                    + "?watch=true&sendInitialEvents=true"
                                    + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
                assertEquals(List.of("ADDED a@" + rv(a)), w.next(1));
                ObjectNode end = w.next();
                assertEquals("BOOKMARK", end.path("type").asText());
                assertEquals("ConfigMap", end.path("object").path("kind").asText());
                assertEquals(
                        "true",
                        end.path("object")
                                .path("metadata")
                                .path("annotations")
                                .path("k8s.io/initial-events-end")
                                .asText());
                assertTrue(rv(end.path("object")) >= rv(a));
                ObjectNode b = createCm(ns, "b", "web");
                assertEquals(List.of("ADDED b@" + rv(b)), w.next(1));
            }
        }

        @Test
        void aWatchListAtAVersionNotReachedEndsWithA504Event() {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            try (WatchClient w =
                    watch(
                            cms(ns)
                                    + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                                    + "&allowWatchBookmarks=true&resourceVersion="
                                    + (rv(a) + 1_000_000))) {
                ObjectNode error = w.next();
                assertEquals("ERROR", error.path("type").asText());
                assertEquals(504, error.path("object").path("code").asInt());
                assertEquals("Timeout", error.path("object").path("reason").asText());
                w.expectEnd();
            }
        }

        @Test
        void invalidWatchCombinationsAnswer422() {
            String ns = newNamespace();
            api.get(cms(ns) + "?watch=true&sendInitialEvents=true")
                    .assertStatusMessageStartsWith(
                            422,
                            "Invalid",
                            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents "
                                    + "requires setting resourceVersionMatch to NotOlderThan");
            api.get(cms(ns) + "?watch=true&resourceVersionMatch=NotOlderThan&resourceVersion=1")
                    .assertFailure(422, "Invalid");
            api.get(cms(ns) + "?watch=true&resourceVersion=abc").assertFailure(400, "BadRequest");
            api.get(cms(ns) + "?watch=true&labelSelector=a+in+(").assertFailure(400, "BadRequest");
            api.get(cms(ns) + "?watch=true&fieldSelector=spec.bogus%3D1")
                    .assertStatusMessageStartsWith(
                            400, "BadRequest", "\"spec.bogus\" is not a known field selector");
            api.get(cms(ns) + "?watch=true&timeoutSeconds=x").assertFailure(400, "BadRequest");
        }

        @Test
        void aWatchOverWebSocketSendsOneTextMessagePerEvent() throws Exception {
            String ns = newNamespace();
            ObjectNode a = createCm(ns, "a", "web");
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            WebSocket ws =
                    TestPki.adminClient()
                            .newWebSocketBuilder()
                            .buildAsync(
                                    URI.create(
                                            api.url().replace("https://", "wss://")
                                                    + cms(ns)
                                                    + "?watch=true&resourceVersion=0"),
                                    new WebSocket.Listener() {
                                        private final StringBuilder partial = new StringBuilder();

                                        @Override
                                        public CompletionStage<?> onText(
                                                WebSocket w, CharSequence data, boolean last) {
                                            partial.append(data);
                                            if (last) {
                                                messages.add(partial.toString());
                                                partial.setLength(0);
                                            }
                                            w.request(1);
                                            return null;
                                        }
                                    })
                            .get(10, TimeUnit.SECONDS);
            try {
                ObjectNode first =
                        (ObjectNode) Json.MAPPER.readTree(messages.poll(10, TimeUnit.SECONDS));
                assertEquals("ADDED a@" + rv(a), WatchClient.describe(first));
                ObjectNode b = createCm(ns, "b", "web");
                ObjectNode second =
                        (ObjectNode) Json.MAPPER.readTree(messages.poll(10, TimeUnit.SECONDS));
                assertEquals("ADDED b@" + rv(b), WatchClient.describe(second));
            } finally {
                ws.abort();
            }
        }

        @Test
        void aWatchCannotBeYaml() {
            String ns = newNamespace();
            Response r = api.get(cms(ns) + "?watch=true", "application/yaml");
            r.assertCode(406);
            assertEquals(
                    "NotAcceptable",
                    r.yaml().path("reason").asText(),
                    "a watch is never a YAML stream");
        }

        private static List<String> fieldNames(JsonNode n) {
            List<String> out = new ArrayList<>();
            n.fieldNames().forEachRemaining(out::add);
            return out;
        }
    }

    /**
     * A server started with {@code --feature-gates=WatchList=false} (a beta gate, on by default):
     * it refuses a watch's initial events in kube's words. SPEC's gates are removed in kube 1.35,
     * so their features (paging, remaining counts, no selfLink) are always on: the other tests here
     * prove those.
     */
    /**
     * Starts servers of its own (a cluster each with {@code -Dkubepekko.it.target=cluster}): left
     * out of the CI cluster subset.
     */
    @Nested
    @Tag("own-servers")
    class Gates {
        @Test
        void withWatchListOffAWatchMayNotAskForItsInitialEvents() throws Exception {
            try (TestApiServer gated =
                    TestApiServer.start(
                            s ->
                                    s.withReads(
                                            new ReadFlags(
                                                    s.reads().watchCacheWindow(),
                                                    s.reads().continueTokenTtl(),
                                                    s.reads().watchHistoryRetention(),
                                                    FeatureGates.parse("WatchList=false"))))) {
                gated.get(
                                "/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true"
                                        + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
                        .assertStatusMessageStartsWith(
                                422,
                                "Invalid",
                                "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden:"
                                        + " sendInitialEvents is forbidden for watch unless the WatchList"
                                        + " feature gate is enabled");
            }
        }
    }

    /**
     * Behaviour at the edge of the retained history, on a server whose window holds 3 events and
     * which reads at most 2 more from the journal for one watch.
     */
    /**
     * Starts servers of its own (a cluster each with {@code -Dkubepekko.it.target=cluster}): left
     * out of the CI cluster subset.
     */
    @Nested
    @Tag("own-servers")
    class History {
        @Test
        void olderThanTheWindowAWatchReadsTheJournalUpToItsLimitThenIsExpired() throws Exception {
            try (TestApiServer small =
                    TestApiServer.start(
                            s ->
                                    s.withConfig(
                                            "kubepekko.watch { max-events = 3, max-history-events = 2 }"))) {
                String ns = "hist";
                small.create(
                        "/api/v1/namespaces",
                        json(
                                "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                        + ns
                                        + "'}}"));
                String path = "/api/v1/namespaces/" + ns + "/configmaps";
                List<ObjectNode> created = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    created.add(
                            small.create(
                                    path,
                                    json(
                                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c"
                                                    + i
                                                    + "'}}")));
                }
                long first = rv(created.get(0));
                small.get(path + "?resourceVersionMatch=Exact&resourceVersion=" + first)
                        .assertStatus(
                                410,
                                "Expired",
                                "The resourceVersion for the provided list is too old.");

                // c3 and c4 come from the journal, c5..c7 from the window.
                try (WatchClient w =
                        WatchClient.open(
                                small.url(),
                                path + "?watch=true&resourceVersion=" + rv(created.get(2)))) {
                    List<String> expected = new ArrayList<>();
                    for (int i = 3; i < 8; i++) {
                        expected.add("ADDED c" + i + "@" + rv(created.get(i)));
                    }
                    assertEquals(expected, w.next(5));
                }
                // Four events are missing before the window: more than one watch may read back.
                try (WatchClient w =
                        WatchClient.open(
                                small.url(), path + "?watch=true&resourceVersion=" + first)) {
                    assertEquals(200, w.code());
                    ObjectNode error = w.next();
                    assertEquals("ERROR", error.path("type").asText());
                    ObjectNode status = (ObjectNode) error.path("object");
                    assertEquals("Status", status.path("kind").asText());
                    assertEquals(410, status.path("code").asInt());
                    assertEquals("Expired", status.path("reason").asText());
                    assertNotNull(status.path("message").asText());
                    assertTrue(
                            status.path("message")
                                    .asText()
                                    .startsWith("too old resource version: " + first + " ("),
                            status.toString());
                    w.expectEnd();
                }
            }
        }
    }
}
