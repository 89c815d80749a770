package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Named.named;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP layer's edges, over raw TLS sockets where no client library would go: request heads that
 * are malformed, oversized or never finished (a connection the server ends is closed down to TCP),
 * bodies with broken framing or an unknown media type, Accept headers that parse to nothing, and
 * watch durations out of range. Every request the server can still answer gets a {@code Status}; a
 * connection that stalls in its head is closed; nothing running (watches, kept-alive connections)
 * is cut by those deadlines.
 */
class ProtocolEdgesIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";
    private static final String NOT_ACCEPTABLE =
            "only the following media types are accepted: application/json, application/yaml";
    private static final String UNSUPPORTED =
            "the body of the request was in an unknown format - accepted media "
                    + "types include: application/json, application/yaml, application/vnd.kubernetes.protobuf";

    /**
     * Short deadlines, so a stalled connection closes within a test; long enough for any real
     * client.
     */
    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(1);

    private static final Duration KEEP_ALIVE = Duration.ofSeconds(6);
    private static final AtomicInteger names = new AtomicInteger();

    /** A selector no object matches: a watch with it sends no initial events, only its end. */
    private static final String NOTHING = "labelSelector=edge-nothing%3Dtrue";

    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api =
                TestApiServer.start(
                        s ->
                                s.withConfig(
                                        "kubepekko.http.read-header-timeout = "
                                                + HEADER_TIMEOUT.toMillis()
                                                + "ms\nkubepekko.http.keep-alive-timeout = "
                                                + KEEP_ALIVE.toMillis()
                                                + "ms"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static String configMap(String name) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':{'a':'1'}}");
    }

    private static String freshName() {
        return "edge-" + names.incrementAndGet();
    }

    /**
     * A raw request for {@code target} with its head and {@code extraHeaders}, asking to close
     * afterwards.
     */
    private static String request(String method, String target, String extraHeaders) {
        return method
                + " "
                + target
                + " HTTP/1.1\r\nHost: test\r\n"
                + extraHeaders
                + "Connection: close\r\n\r\n";
    }

    private static Response rawExchange(String request) {
        try (RawHttp c = RawHttp.open(api.url())) {
            return c.send(request).response();
        }
    }

    @Nested
    class WatchDurations {

        @ParameterizedTest(name = "timeoutSeconds={0}")
        @ValueSource(strings = {"21474836", "999999999", "9223372036854775807"})
        void aWatchLongerThanTheSchedulerCanTimeIsServed(String timeoutSeconds) {
            String name = freshName();
            try (WatchClient w =
                    WatchClient.open(
                            api.url(),
                            CMS
                                    + "?watch=1&labelSelector=edge%3D"
                                    + name
                                    + "&timeoutSeconds="
                                    + timeoutSeconds)) {
                assertEquals(200, w.code());
                api.create(
                        CMS,
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                        + name
                                        + "','labels':{'edge':'"
                                        + name
                                        + "'}}}"));
                assertEquals("ADDED " + name, WatchClient.describe(w.next()).replaceAll("@.*", ""));
            }
        }

        @Test
        void aWatchWithANegativeTimeoutEndsAtOnce() {
            try (WatchClient w =
                    WatchClient.open(
                            api.url(), CMS + "?watch=1&" + NOTHING + "&timeoutSeconds=-1")) {
                assertEquals(200, w.code());
                w.expectEnd();
            }
        }

        @Test
        void aTimeoutThatIsNotAnInt64IsABadRequest() {
            api.get(CMS + "?watch=1&timeoutSeconds=abc")
                    .assertStatus(
                            400, "BadRequest", "strconv.ParseInt: parsing \"abc\": invalid syntax");
            api.get(CMS + "?watch=1&timeoutSeconds=9223372036854775808")
                    .assertStatus(
                            400,
                            "BadRequest",
                            "strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
        }
    }

    @Nested
    class AcceptHeaders {

        @ParameterizedTest(name = "Accept: \"{0}\"")
        @ValueSource(strings = {";;;", ",", ";", " , ; ", ";q=1"})
        void anAcceptHeaderWithoutAMediaRangeIsNotAcceptable(String accept) {
            api.get(CMS, accept).assertStatus(406, "NotAcceptable", NOT_ACCEPTABLE);
            Response discovery = api.get("/api", accept);
            assertEquals(406, discovery.code(), discovery::text);
        }

        @Test
        void unreadableRangesBesideAServedOneAreSkipped() {
            api.get(CMS, "application/json, \u00fc/\u00fc;\u00fc=\u00fc").assertCode(200);
            String longHeader =
                    IntStream.range(0, 2000)
                                    .mapToObj(i -> "application/x-" + i)
                                    .collect(Collectors.joining(", "))
                            + ", application/json";
            assertTrue(longHeader.length() > 30_000);
            api.get(CMS, longHeader).assertCode(200);
        }
    }

    @Nested
    class BodyMediaTypes {

        static Stream<String> refused() {
            return Stream.of(
                    "garbage",
                    "json",
                    "application/json/x",
                    "application/octet-stream",
                    "text/plain",
                    "application/json; charset",
                    "application/merge-patch+json");
        }

        @ParameterizedTest(name = "Content-Type: {0}")
        @MethodSource("refused")
        void aCreateInAnUnknownMediaTypeIsRefusedAndCreatesNothing(String contentType) {
            String name = freshName();
            api.call("POST", CMS)
                    .body(contentType, configMap(name))
                    .send()
                    .assertStatus(415, "UnsupportedMediaType", UNSUPPORTED);
            api.get(CMS + "/" + name).assertCode(404);
        }

        @ParameterizedTest(name = "Content-Type: {0}")
        @MethodSource("refused")
        void anUpdateOrDeleteInAnUnknownMediaTypeIsRefusedAndChangesNothing(String contentType) {
            String name = freshName();
            api.create(CMS, configMap(name));
            api.call("PUT", CMS + "/" + name)
                    .body(contentType, configMap(name).replace("\"1\"", "\"2\""))
                    .send()
                    .assertStatus(415, "UnsupportedMediaType", UNSUPPORTED);
            api.call("DELETE", CMS + "/" + name)
                    .body(contentType, "{}")
                    .send()
                    .assertStatus(415, "UnsupportedMediaType", UNSUPPORTED);
            assertEquals(
                    "1",
                    api.get(CMS + "/" + name)
                            .assertCode(200)
                            .json()
                            .path("data")
                            .path("a")
                            .asText());
        }

        @ParameterizedTest(name = "Content-Type: {0}")
        @ValueSource(
                strings = {
                    "application/json",
                    "application/json; charset=utf-8",
                    "application/json; charset=latin1",
                    "Application/JSON",
                    "application/json;",
                    "application/json; charset=\"utf-8\""
                })
        void jsonIsReadWhateverItsCaseAndParameters(String contentType) {
            api.call("POST", CMS).body(contentType, configMap(freshName())).send().assertCode(201);
        }

        @Test
        void aBodyWithoutContentTypeIsJson() {
            api.call("POST", CMS).rawBody(configMap(freshName())).send().assertCode(201);
        }

        @Test
        void yamlIsReadWhateverItsCase() {
            String name = freshName();
            api.call("POST", CMS)
                    .body(
                            "APPLICATION/YAML",
                            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n")
                    .send()
                    .assertCode(201);
        }
    }

    @Nested
    class RequestHeads {

        @Test
        void aTenKilobyteLabelSelectorIsServed() {
            String values =
                    IntStream.range(0, 1500)
                            .mapToObj(i -> "value" + i)
                            .collect(Collectors.joining(","));
            String target = CMS + "?labelSelector=app+in+(" + values + ")";
            assertTrue(target.length() > 10_000);
            api.get(target).assertCode(200);
        }

        @Test
        void aTenKilobyteContinueTokenReachesTheServer() {
            String token = "x".repeat(10_000);
            api.get(CMS + "?limit=1&continue=" + token).assertFailure(400, "BadRequest");
        }

        @Test
        void largeAndManyHeadersAreServed() {
            String headers =
                    "X-Large: "
                            + "a".repeat(60_000)
                            + "\r\n"
                            + IntStream.range(0, 100)
                                    .mapToObj(i -> "X-Many-" + i + ": " + i + "\r\n")
                                    .collect(Collectors.joining());
            rawExchange(request("GET", CMS, headers)).assertCode(200);
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(
                strings = {
                    "GET /api HTTP/1.0\r\n\r\n",
                    "GET /api HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n"
                })
        void aRequestWithoutAHostNameIsServedWhereGoServesIt(String request) {
            // Go's server requires a Host header only in HTTP/1.1, and takes an empty one.
            rawExchange(request).assertCode(200);
        }

        static Stream<Arguments> malformed() {
            String tooManyHeaders =
                    IntStream.range(0, 300)
                            .mapToObj(i -> "X-H" + i + ": v\r\n")
                            .collect(Collectors.joining());
            return Stream.of(
                    Arguments.of(
                            named("unknown method", "FOO /api HTTP/1.1\r\nHost: t\r\n\r\n"),
                            405,
                            "MethodNotAllowed"),
                    Arguments.of(
                            named("lowercase method", "get /api HTTP/1.1\r\nHost: t\r\n\r\n"),
                            405,
                            "MethodNotAllowed"),
                    Arguments.of(
                            named(
                                    "URI over 64 KiB",
                                    request("GET", "/api?x=" + "a".repeat(70_000), "")),
                            431,
                            ""),
                    Arguments.of(
                            named(
                                    "header over 64 KiB",
                                    request(
                                            "GET",
                                            "/api",
                                            "X-Big: " + "a".repeat(70_000) + "\r\n")),
                            431,
                            ""),
                    Arguments.of(
                            named(
                                    "header name over 1 KiB",
                                    request("GET", "/api", "X-" + "n".repeat(2_000) + ": v\r\n")),
                            431,
                            ""),
                    Arguments.of(
                            named("more than 256 headers", request("GET", "/api", tooManyHeaders)),
                            400,
                            "BadRequest"),
                    Arguments.of(named("no protocol", "GET /api\r\nHost: t\r\n\r\n"), 505, ""),
                    Arguments.of(
                            named("unknown protocol", "GET /api HTTP/9.9\r\nHost: t\r\n\r\n"),
                            505,
                            ""),
                    Arguments.of(named("no Host", "GET /api HTTP/1.1\r\n\r\n"), 400, "BadRequest"),
                    Arguments.of(
                            named(
                                    "header without colon",
                                    "GET /api HTTP/1.1\r\nHost: t\r\nnonsense\r\n\r\n"),
                            400,
                            "BadRequest"),
                    Arguments.of(
                            named(
                                    "illegal request target",
                                    "GET /a\u0001b HTTP/1.1\r\nHost: t\r\n\r\n"),
                            400,
                            "BadRequest"),
                    Arguments.of(
                            named(
                                    "two Content-Lengths",
                                    "POST "
                                            + CMS
                                            + " HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
                            400,
                            "BadRequest"),
                    Arguments.of(
                            named(
                                    "a TLS handshake inside TLS",
                                    "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000"),
                            400,
                            "BadRequest"));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("malformed")
        void aHeadThatCannotBeServedAnswersAStatus(String request, int code, String reason) {
            rawExchange(request).assertFailure(code, reason);
        }

        /**
         * The server's only port speaks TLS: a plain HTTP request there is answered as Go's server
         * answers it (net/http's conn.serve, for a first TLS record header that reads as one of
         * these request starts), in the clear, and the connection is closed.
         */
        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"GET", "HEAD", "POST", "PUT", "OPTIONS"})
        void plainHttpToTheTlsPortIsAnsweredAsGoAnswersIt(String method) throws IOException {
            assertEquals(
                    "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS"
                            + " server.\n",
                    plainExchange(request(method, "/api", "")));
        }

        /**
         * Go answers only the request starts it recognizes; any other first record that is not
         * TLS's is closed without a byte, neither an HTTP answer nor a TLS alert.
         */
        @Test
        void aPlainRequestGoDoesNotRecognizeIsClosedWithoutAWord() throws IOException {
            assertEquals("", plainExchange(request("DELETE", "/api", "")));
            assertEquals("", plainExchange("\u0017\u0003\u0003\u0000\u0010junkjunkjunkjunk"));
        }

        /** Everything the server sends in the clear before it closes the connection. */
        private static String plainExchange(String request) throws IOException {
            URI u = URI.create(api.url());
            try (Socket plain = new Socket(u.getHost(), u.getPort())) {
                plain.setSoTimeout(Math.toIntExact(HEADER_TIMEOUT.multipliedBy(10).toMillis()));
                plain.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                ByteArrayOutputStream answer = new ByteArrayOutputStream();
                try {
                    plain.getInputStream().transferTo(answer);
                } catch (SocketException reset) {
                    // closed with a reset after what it sent, if anything
                }
                return answer.toString(StandardCharsets.ISO_8859_1);
            }
        }

        @Test
        void aMalformedChunkSizeIsABadRequestAndCreatesNothing() {
            String name = freshName();
            String body = configMap(name);
            Response r =
                    rawExchange(
                            "POST "
                                    + CMS
                                    + " HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                                    + "Transfer-Encoding: chunked\r\n\r\n"
                                    + Integer.toHexString(body.length())
                                    + "\r\n"
                                    + body
                                    + "\r\nzz\r\n");
            r.assertFailure(400, "BadRequest");
            api.get(CMS + "/" + name).assertCode(404);
        }
    }

    /** Each waits out a deadline on a connection of its own: they run side by side. */
    @Nested
    class SlowClients {

        @Execution(ExecutionMode.CONCURRENT)
        @ParameterizedTest(name = "head sent: \"{0}\"")
        @ValueSource(
                strings = {
                    "",
                    "GET /api",
                    "GET /api HTTP/1.1\r\n",
                    "GET /api HTTP/1.1\r\nHost: t\r\nX-A: b"
                })
        void aConnectionStalledInItsHeadIsClosed(String partial) {
            try (RawHttp c = RawHttp.open(api.url())) {
                c.send(partial).awaitClosedWithin(HEADER_TIMEOUT.multipliedBy(10));
            }
        }

        @Execution(ExecutionMode.CONCURRENT)
        @Test
        void aConnectionTricklingItsHeadIsClosed() {
            ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
            try (RawHttp c = RawHttp.open(api.url())) {
                c.send("GET /api HTTP/1.1\r\nHost: t\r\nX-Slow: ");
                // One byte at a time, so the connection is never idle: only the head's deadline can
                // close it.
                trickle.scheduleAtFixedRate(() -> c.send("a"), 0, 100, TimeUnit.MILLISECONDS);
                c.awaitClosedWithin(HEADER_TIMEOUT.multipliedBy(10));
            } finally {
                trickle.shutdownNow();
            }
        }

        @Execution(ExecutionMode.CONCURRENT)
        @Test
        void aWatchOutlivesTheHeadDeadlineAndItsConnectionServesTheNextRequest() {
            try (RawHttp c = RawHttp.open(api.url())) {
                // Three times the head deadline; the watch must end as it should, with its last
                // chunk.
                Response watch =
                        c.get(CMS + "?watch=1&resourceVersion=0&timeoutSeconds=3").response();
                assertEquals(200, watch.code());
                c.get("/api").response().assertCode(200);
            }
        }

        @Execution(ExecutionMode.CONCURRENT)
        @Test
        void aWebSocketWatchOutlivesTheHeadAndKeepAliveDeadlines() throws Exception {
            String name = freshName();
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            WebSocket ws =
                    TestPki.adminClient()
                            .newWebSocketBuilder()
                            .buildAsync(
                                    URI.create(
                                            api.url().replace("https://", "wss://")
                                                    + CMS
                                                    + "?watch=1&labelSelector=edge%3D"
                                                    + name),
                                    new WebSocket.Listener() {
                                        @Override
                                        public CompletionStage<?> onText(
                                                WebSocket w, CharSequence data, boolean last) {
                                            messages.add(data.toString());
                                            w.request(1);
                                            return null;
                                        }
                                    })
                            .get(10, TimeUnit.SECONDS);
            try {
                // Past both deadlines a connection that is still speaking HTTP would have (1 s + 6
                // s).
                try (WatchClient clock =
                        WatchClient.open(
                                api.url(),
                                CMS
                                        + "?watch=1&"
                                        + NOTHING
                                        + "&timeoutSeconds="
                                        + KEEP_ALIVE
                                                .plus(HEADER_TIMEOUT)
                                                .plusSeconds(1)
                                                .toSeconds())) {
                    clock.expectEnd(KEEP_ALIVE.multipliedBy(3));
                }
                api.create(
                        CMS,
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                        + name
                                        + "','labels':{'edge':'"
                                        + name
                                        + "'}}}"));
                String event = messages.poll(10, TimeUnit.SECONDS);
                assertTrue(
                        event != null && event.contains("\"ADDED\"") && event.contains(name),
                        () -> "got " + event);
            } finally {
                ws.abort();
            }
        }

        @Execution(ExecutionMode.CONCURRENT)
        @Test
        void anIdleKeptAliveConnectionOutlivesTheHeadDeadline() {
            try (RawHttp idle = RawHttp.open(api.url())) {
                idle.get("/api").response().assertCode(200);
                // Another watch as the clock: it ends after twice the head deadline.
                try (WatchClient w =
                        WatchClient.open(
                                api.url(), CMS + "?watch=1&" + NOTHING + "&timeoutSeconds=2")) {
                    w.expectEnd();
                }
                idle.get("/api").response().assertCode(200);
            }
        }

        @Execution(ExecutionMode.CONCURRENT)
        @Test
        void anIdleKeptAliveConnectionIsClosedAfterTheKeepAliveTimeout() {
            try (RawHttp idle = RawHttp.open(api.url())) {
                idle.get("/api").response().assertCode(200);
                idle.awaitClosedWithin(KEEP_ALIVE.plus(HEADER_TIMEOUT).multipliedBy(3));
            }
        }
    }
}
