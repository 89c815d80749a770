package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.Environment;
import io.kubepekko.http.server.ReadFlags;
import io.kubepekko.testsupport.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Beyond Kubernetes: a watch from a resourceVersion older than the in-memory window, but within
 * {@code --watch-history-retention}, is served from the journal and then continues live, with
 * nothing lost or repeated; older than the retention it is 410 as usual; also after a restart. The
 * server's clock is injected, so "an hour ago" takes no time.
 */
class JournalResumeIT {

    /**
     * A clock at the real time, then moved by the test: the server checks the admin's client
     * certificate ({@link TestPki}'s, valid from an hour before it was issued) by this clock, so a
     * fixed date in the past would make every request 401.
     */
    private static ManualClock clockAtNow() {
        return new ManualClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    }

    private static TestApiServer start(ManualClock clock) throws Exception {
        Environment system = Environment.system();
        return TestApiServer.start(
                s ->
                        s.withReads(
                                        new ReadFlags(
                                                Duration.ofMinutes(1),
                                                Duration.ofMinutes(5),
                                                Duration.ofHours(2),
                                                s.reads().featureGates()))
                                .withConfig(
                                        "kubepekko.watch { checkpoint-interval = 10m, checkpoint-margin = 1m }"),
                new Environment(clock, system.uids(), system.nameSuffixes()));
    }

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    private static ObjectNode create(TestApiServer api, String name) {
        return api.create(
                CMS,
                json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "'}}"));
    }

    /** The window no longer holds {@code version}: an exact list there is 410. */
    private static void awaitOutsideWindow(TestApiServer api, long version) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () ->
                                api.get(
                                                        CMS
                                                                + "?resourceVersionMatch=Exact&resourceVersion="
                                                                + version)
                                                .code()
                                        == 410);
    }

    @Test
    void aWatchFromAnHourAgoReplaysTheJournalThenGoesLiveAndOlderThanTheRetentionIs410()
            throws Exception {
        ManualClock clock = clockAtNow();
        try (TestApiServer api = start(clock)) {
            ObjectNode a = create(api, "a");
            ObjectNode b = create(api, "b");
            ObjectNode c = create(api, "c");
            // A few checkpoints along the way: the resume reads the journal from the nearest one.
            clock.advance(Duration.ofMinutes(20));
            ObjectNode c2 =
                    api.patch(
                                    CMS + "/c",
                                    "application/merge-patch+json",
                                    json("{'data':{'k':'v'}}"))
                            .assertCode(200)
                            .json();
            clock.advance(Duration.ofMinutes(40));
            ObjectNode d =
                    create(api, "d"); // an hour later: the 1-minute window holds only this one
            awaitOutsideWindow(api, rv(a));

            try (WatchClient w =
                    WatchClient.open(api.url(), CMS + "?watch=true&resourceVersion=" + rv(a))) {
                assertEquals(200, w.code());
                assertEquals(
                        List.of(
                                "ADDED b@" + rv(b),
                                "ADDED c@" + rv(c),
                                "MODIFIED c@" + rv(c2),
                                "ADDED d@" + rv(d)),
                        w.next(4),
                        "exactly the missed events, from the journal and then the window");
                ObjectNode e = create(api, "e");
                api.delete(CMS + "/a").assertCode(200);
                List<String> live = w.next(2);
                assertEquals("ADDED e@" + rv(e), live.get(0));
                assertEquals("DELETED", live.get(1).split(" ")[0]);
            }
            // From between two journal events: only what came after it.
            try (WatchClient w =
                    WatchClient.open(api.url(), CMS + "?watch=true&resourceVersion=" + rv(c))) {
                assertEquals(List.of("MODIFIED c@" + rv(c2), "ADDED d@" + rv(d)), w.next(2));
            }

            clock.advance(Duration.ofHours(3));
            create(api, "f");
            awaitOutsideWindow(api, rv(d));
            try (WatchClient w =
                    WatchClient.open(api.url(), CMS + "?watch=true&resourceVersion=" + rv(a))) {
                ObjectNode error = w.next();
                assertEquals(
                        "ERROR",
                        error.path("type").asText(),
                        "missed changes older than the retention");
                assertEquals(410, error.path("object").path("code").asInt());
                assertEquals("Expired", error.path("object").path("reason").asText());
                w.expectEnd();
            }
        }
    }

    @Test
    void aWatchFromBeforeARestartResumesFromTheJournal() throws Exception {
        ManualClock clock = clockAtNow();
        try (TestApiServer api = start(clock)) {
            ObjectNode a = create(api, "a");
            ObjectNode b = create(api, "b");
            api.restart();
            clock.advance(Duration.ofMinutes(30));
            ObjectNode c = create(api, "c");
            try (WatchClient w =
                    WatchClient.open(api.url(), CMS + "?watch=true&resourceVersion=" + rv(a))) {
                assertEquals(200, w.code());
                assertEquals(List.of("ADDED b@" + rv(b), "ADDED c@" + rv(c)), w.next(2));
                ObjectNode d = create(api, "d");
                assertEquals(List.of("ADDED d@" + rv(d)), w.next(1));
            }
        }
    }
}
