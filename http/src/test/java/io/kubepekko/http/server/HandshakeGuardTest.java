package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Named.named;

import io.kubepekko.http.server.HandshakeGuard.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A connection's first bytes judged as Go's server judges them, and the guard on a connection: a
 * plain HTTP request answered with Go's bytes, anything else handed to TLS, a handshake that does
 * not end closed.
 */
class HandshakeGuardTest {

    private static final Duration LONG = Duration.ofMinutes(5);
    private static ActorSystem<Void> system;

    @BeforeAll
    static void start() {
        system = ActorSystem.create(Behaviors.empty(), "handshake-guard");
    }

    @AfterAll
    static void stop() {
        system.terminate();
    }

    static Stream<Arguments> firstBytes() {
        return Stream.of(
                Arguments.of(named("GET", "GET /api HTTP/1.1\r\n"), Verdict.PLAIN_HTTP),
                Arguments.of(named("HEAD", "HEAD /api HTTP/1.1\r\n"), Verdict.PLAIN_HTTP),
                Arguments.of(named("POST", "POST /api HTTP/1.1\r\n"), Verdict.PLAIN_HTTP),
                Arguments.of(named("PUT", "PUT /api HTTP/1.1\r\n"), Verdict.PLAIN_HTTP),
                Arguments.of(named("OPTIONS", "OPTIONS * HTTP/1.1\r\n"), Verdict.PLAIN_HTTP),
                Arguments.of(named("exactly five bytes", "GET /"), Verdict.PLAIN_HTTP),
                Arguments.of(named("nothing yet", ""), Verdict.UNDECIDED),
                Arguments.of(named("GET so far", "GET "), Verdict.UNDECIDED),
                Arguments.of(named("P so far", "P"), Verdict.UNDECIDED),
                Arguments.of(
                        named("DELETE (not one of Go's)", "DELETE /x HTTP/1.1"), Verdict.NOT_TLS),
                Arguments.of(
                        named("PATCH (not one of Go's)", "PATCH /x HTTP/1.1"), Verdict.NOT_TLS),
                Arguments.of(named("GET without a slash", "GET x HTTP/1.1"), Verdict.NOT_TLS),
                Arguments.of(named("lowercase", "get / HTTP/1.1"), Verdict.NOT_TLS),
                Arguments.of(named("a ClientHello's first byte", "\u0016"), Verdict.UNDECIDED),
                Arguments.of(
                        named("four bytes of a record", "\u0016\u0003\u0001\u0000"),
                        Verdict.UNDECIDED),
                Arguments.of(
                        named("an alert record", "\u0015\u0003\u0003\u0000\u0002"), Verdict.TLS),
                Arguments.of(
                        named("an SSL 2 ClientHello", "\u0080\u002e\u0001\u0003\u0001"),
                        Verdict.TLS),
                Arguments.of(
                        named("application data first", "\u0017\u0003\u0003\u0000\u0010"),
                        Verdict.NOT_TLS),
                Arguments.of(
                        named("version 16.0", "\u0016\u0010\u0000\u0000\u0010"), Verdict.NOT_TLS),
                Arguments.of(
                        named("a ClientHello's record header", "\u0016\u0003\u0001\u0000\u00a5"),
                        Verdict.TLS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("firstBytes")
    void judgesTheFirstBytesAsGo(String first, Verdict expected) {
        assertEquals(expected, HandshakeGuard.verdict(bytes(first)));
    }

    @Test
    void answersAPlainHttpRequestWithGosBytesAndCloses() throws Exception {
        Exchange e =
                run(List.of("GET /api HTTP/1.1\r\nHost: x\r\n\r\n"), new CompletableFuture<>());
        assertEquals(List.of(HandshakeGuard.PLAIN_HTTP_ANSWER), e.toNet());
        assertEquals(List.of(), e.toTls());
    }

    @Test
    void answersARequestWhoseFirstBytesComeInPieces() throws Exception {
        Exchange e = run(List.of("PO", "S", "T /api HTTP/1.1\r\n\r\n"), new CompletableFuture<>());
        assertEquals(List.of(HandshakeGuard.PLAIN_HTTP_ANSWER), e.toNet());
        assertEquals(List.of(), e.toTls());
    }

    @Test
    void handsTlsARecordHeaderOnceItIsCompleteWithWhatCameWithIt() throws Exception {
        assertEquals(
                bytes("\u0016\u0003\u0001\u0000\u00a5\u0001"),
                firstToTls(List.of("\u0016\u0003", "\u0001\u0000\u00a5\u0001")));
    }

    @Test
    void closesWithoutAWordAStartThatIsNeitherTlsNorGosPlainHttp() throws Exception {
        Exchange e = run(List.of("DELETE /x HTTP/1.1\r\n\r\n"), new CompletableFuture<>());
        assertEquals(List.of(), e.toNet());
        assertEquals(List.of(), e.toTls());
    }

    @Test
    void closesAConnectionWhoseHandshakeDoesNotEndInTime() throws Exception {
        Exchange e =
                run(
                        List.of("\u0016\u0003\u0001\u0000\u00a5\u0001"),
                        new CompletableFuture<>(),
                        Duration.ofMillis(100));
        // Closed without a word from the guard; TLS had the bytes.
        assertEquals(List.of(), e.toNet());
        assertEquals(List.of(bytes("\u0016\u0003\u0001\u0000\u00a5\u0001")), e.toTls());
    }

    /** What the guard sent each way until the connection closed. */
    private record Exchange(List<ByteString> toNet, List<ByteString> toTls) {}

    private static Exchange run(List<String> fromClient, CompletionStage<?> handshake)
            throws Exception {
        return run(fromClient, handshake, LONG);
    }

    /**
     * The guard between a client that sends {@code fromClient} and then waits, and a TLS stage that
     * sends nothing; returns once the guard has closed the connection.
     */
    private static Exchange run(
            List<String> fromClient, CompletionStage<?> handshake, Duration timeout)
            throws Exception {
        Pair<CompletionStage<List<ByteString>>, CompletionStage<List<ByteString>>> sent =
                Source.<ByteString>maybe()
                        .viaMat(
                                HandshakeGuard.create(timeout, handshake)
                                        .join(client(fromClient), Keep.right()),
                                Keep.right())
                        .toMat(Sink.seq(), Keep.both())
                        .run(system);
        return new Exchange(
                sent.first().toCompletableFuture().get(10, TimeUnit.SECONDS),
                sent.second().toCompletableFuture().get(10, TimeUnit.SECONDS));
    }

    /** The first bytes TLS gets from a client that sends {@code fromClient}, then waits. */
    private static ByteString firstToTls(List<String> fromClient) throws Exception {
        return HandshakeGuard.create(LONG, new CompletableFuture<>())
                .join(client(fromClient))
                .runWith(Source.maybe(), Sink.head(), system)
                .second()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    /**
     * The client's side of the network: what reaches it is collected, it sends {@code chunks} and
     * then stays open.
     */
    private static Flow<ByteString, ByteString, CompletionStage<List<ByteString>>> client(
            List<String> chunks) {
        return Flow.fromSinkAndSourceMat(
                Sink.<ByteString>seq(),
                Source.from(chunks).map(HandshakeGuardTest::bytes).concat(Source.maybe()),
                Keep.left());
    }

    private static ByteString bytes(String s) {
        return ByteString.fromString(s, StandardCharsets.ISO_8859_1);
    }
}
