package io.kubepekko.http;

import static org.junit.jupiter.api.Named.named;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A connection's deadlines around its TLS handshake, as Go's server (kube-apiserver's) has them:
 * the handshake must end within the read-header timeout of the connection's start (Go's {@code
 * tlsHandshakeTimeout}), and the first request head then has the read-header timeout of its own,
 * from the handshake's end.
 *
 * <p>The tests run side by side (each on a connection of its own): each waits out a deadline.
 */
class HandshakeDeadlineIT {

    /** Long enough for any real client's handshake on a loaded machine. */
    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(4);

    /**
     * Generous for a deadline of {@link #HEADER_TIMEOUT}, and short of twice it: what a new
     * connection had for its handshake and first head together before each got its own.
     */
    private static final Duration CLOSED_WITHIN = HEADER_TIMEOUT.plus(HEADER_TIMEOUT.dividedBy(2));

    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api =
                TestApiServer.start(
                        s ->
                                s.withConfig(
                                        "kubepekko.http.read-header-timeout = "
                                                + HEADER_TIMEOUT.toMillis()
                                                + "ms"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    static Stream<Arguments> stalledBeforeTheHandshakeEnds() {
        return Stream.of(
                Arguments.of(named("no ClientHello", "")),
                Arguments.of(
                        named(
                                "part of a ClientHello",
                                "\u0016\u0003\u0001\u0000\u00a5\u0001\u0000")),
                Arguments.of(named("a plain request's start, too short to judge", "GET")));
    }

    @Execution(ExecutionMode.CONCURRENT)
    @ParameterizedTest(name = "{0}")
    @MethodSource("stalledBeforeTheHandshakeEnds")
    void aConnectionStalledBeforeItsHandshakeEndsIsClosedWithinTheHandshakeDeadline(String sent) {
        try (RawHttp tcp = RawHttp.open(api.url().replace("https://", "http://"))) {
            tcp.send(sent).awaitClosedWithin(CLOSED_WITHIN);
        }
    }

    @Execution(ExecutionMode.CONCURRENT)
    @Test
    void aConnectionStalledAfterItsHandshakeIsClosedWithinTheHeadDeadline() {
        try (RawHttp tls = RawHttp.open(api.url())) {
            tls.awaitClosedWithin(CLOSED_WITHIN);
        }
    }
}
