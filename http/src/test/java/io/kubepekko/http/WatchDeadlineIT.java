package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A watch that ends after {@code timeoutSeconds}, on a server with the default bookmark interval (a
 * minute): a watcher that allows bookmarks gets one about two seconds before its deadline, as from
 * kube-apiserver's watch cache, so a reflector (client-go, client-java) resumes from a fresh
 * resourceVersion.
 */
class WatchDeadlineIT {

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String cms(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static void namespace(String ns) {
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
    }

    private static ObjectNode createCm(String ns, String name) {
        return api.create(
                cms(ns),
                json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "'}}"));
    }

    private static long rv(ObjectNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }

    @Test
    void aWatchThatTimesOutGetsABookmarkJustBeforeItsDeadline() {
        namespace("deadline-a");
        namespace("deadline-b");
        ObjectNode a = createCm("deadline-a", "a");
        try (WatchClient w =
                WatchClient.open(
                        api.url(),
                        cms("deadline-a")
                                + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=4&resourceVersion="
                                + rv(a))) {
            assertEquals(200, w.code());
            ObjectNode elsewhere =
                    createCm(
                            "deadline-b", "b"); // progress of the group-resource, not of this watch
            ObjectNode bookmark = w.next();
            assertEquals("BOOKMARK", bookmark.path("type").asText());
            assertTrue(
                    rv((ObjectNode) bookmark.path("object")) >= rv(elsewhere),
                    "the bookmark carries the progress: " + bookmark);
            w.expectEnd();
        }
    }

    @Test
    void aWatchThatDoesNotAllowBookmarksGetsNone() {
        namespace("deadline-c");
        ObjectNode c = createCm("deadline-c", "c");
        try (WatchClient w =
                WatchClient.open(
                        api.url(),
                        cms("deadline-c")
                                + "?watch=true&timeoutSeconds=3&resourceVersion="
                                + rv(c))) {
            createCm("deadline-a", "x");
            w.expectEnd();
        }
    }
}
