package io.kubepekko.http.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.AsyncCallback;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A secure-port connection's bytes until its TLS handshake ends, where Go's {@code net/http} server
 * (kube-apiserver's) treats two clients differently from a TLS stack alone:
 *
 * <ul>
 *   <li>one that speaks plain HTTP: when the first five bytes are one of the request starts Go
 *       recognizes ({@code tlsRecordHeaderLooksLikeHTTP}: {@code "GET /"}, {@code "HEAD "}, {@code
 *       "POST "}, {@code "PUT /"}, {@code "OPTIO"}), it answers {@link #PLAIN_HTTP_ANSWER} in the
 *       clear and closes the connection, as {@code conn.serve} does for that {@code
 *       RecordHeaderError}.
 *   <li>one whose first record header is not TLS's in another way: a record type other than
 *       handshake or alert, or a version of 16.0 or more ({@code readRecordOrCCS}: "first record
 *       does not look like a TLS handshake"). Go closes it without a word, where a TLS stack would
 *       answer an alert. An SSL 2 start (0x80) goes to TLS, which refuses it with an alert as Go
 *       does.
 *   <li>one that does not finish its handshake: the connection is closed {@code handshakeTimeout}
 *       after it was accepted (Go's {@code tlsHandshakeTimeout}, the smallest positive of its
 *       read-header, read and write timeouts: kube-apiserver's {@code ReadHeaderTimeout}, 32 s).
 * </ul>
 *
 * <p>It sits between the TCP connection and the TLS stage, one per connection; {@code handshake}
 * completes when the TLS stage has finished the handshake. It holds the first five bytes (a record
 * header, as Go reads them) until they are complete; once they are judged TLS and the handshake is
 * done, it only passes bytes on, with no work of its own.
 */
final class HandshakeGuard
        extends GraphStage<BidiShape<ByteString, ByteString, ByteString, ByteString>> {
    private static final Logger log = LoggerFactory.getLogger(HandshakeGuard.class);

    /** Go's answer, byte for byte: no headers, the connection closed after it. */
    static final ByteString PLAIN_HTTP_ANSWER =
            ByteString.fromString(
                    "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n",
                    StandardCharsets.US_ASCII);

    /** A TLS record header's length: the bytes Go reads before it judges a connection. */
    private static final int RECORD_HEADER = 5;

    private static final List<ByteString> HTTP_STARTS =
            List.of("GET /", "HEAD ", "POST ", "PUT /", "OPTIO").stream()
                    .map(s -> ByteString.fromString(s, StandardCharsets.US_ASCII))
                    .toList();

    private static final int HANDSHAKE_RECORD = 0x16;
    private static final int ALERT_RECORD = 0x15;
    private static final int SSL2_START = 0x80;

    /** Go's bound: no TLS version is 16.0 or more. */
    private static final int NO_SUCH_VERSION = 0x1000;

    /** What a connection's first bytes say it speaks. */
    enum Verdict {
        TLS,
        PLAIN_HTTP,
        /** A first record header no TLS client sends: closed without an answer. */
        NOT_TLS,
        /** Fewer than the five bytes of a record header. */
        UNDECIDED
    }

    /** What {@code first}, the connection's bytes so far, say it speaks. */
    static Verdict verdict(ByteString first) {
        if (first.size() < RECORD_HEADER) {
            return Verdict.UNDECIDED;
        }
        ByteString head = first.take(RECORD_HEADER);
        if (HTTP_STARTS.contains(head)) {
            return Verdict.PLAIN_HTTP;
        }
        int type = head.apply(0) & 0xff;
        int version = (head.apply(1) & 0xff) << 8 | (head.apply(2) & 0xff);
        if (type == SSL2_START) {
            return Verdict.TLS;
        }
        if (type != HANDSHAKE_RECORD && type != ALERT_RECORD || version >= NO_SUCH_VERSION) {
            return Verdict.NOT_TLS;
        }
        return Verdict.TLS;
    }

    private final Inlet<ByteString> fromTls = Inlet.create("HandshakeGuard.fromTls");
    private final Outlet<ByteString> toNet = Outlet.create("HandshakeGuard.toNet");
    private final Inlet<ByteString> fromNet = Inlet.create("HandshakeGuard.fromNet");
    private final Outlet<ByteString> toTls = Outlet.create("HandshakeGuard.toTls");
    private final BidiShape<ByteString, ByteString, ByteString, ByteString> shape =
            BidiShape.of(fromTls, toNet, fromNet, toTls);

    private final Duration handshakeTimeout;
    private final CompletionStage<?> handshake;

    private HandshakeGuard(Duration handshakeTimeout, CompletionStage<?> handshake) {
        this.handshakeTimeout = handshakeTimeout;
        this.handshake = handshake;
    }

    /**
     * The guard of one connection, to sit under its TLS stage: TLS's bytes on top, the network's
     * below.
     */
    static BidiFlow<ByteString, ByteString, ByteString, ByteString, NotUsed> create(
            Duration handshakeTimeout, CompletionStage<?> handshake) {
        return BidiFlow.fromGraph(new HandshakeGuard(handshakeTimeout, handshake));
    }

    @Override
    public BidiShape<ByteString, ByteString, ByteString, ByteString> shape() {
        return shape;
    }

    @Override
    public GraphStageLogic createLogic(Attributes inheritedAttributes) {
        return new TimerGraphStageLogic(shape) {
            /** The connection's first bytes, held until they say what it speaks. */
            private ByteString first = ByteString.emptyByteString();

            {
                // Towards the network everything passes from the start: TLS sends nothing before
                // the client's first bytes, and the plain answer goes out only instead of TLS.
                setHandler(
                        fromTls,
                        new AbstractInHandler() {
                            @Override
                            public void onPush() {
                                push(toNet, grab(fromTls));
                            }

                            @Override
                            public void onUpstreamFinish() {
                                complete(toNet);
                            }
                        });
                setHandler(
                        toNet,
                        new AbstractOutHandler() {
                            @Override
                            public void onPull() {
                                pull(fromTls);
                            }

                            @Override
                            public void onDownstreamFinish(Throwable cause) {
                                cancel(fromTls, cause);
                            }
                        });
                setHandler(
                        toTls,
                        new AbstractOutHandler() {
                            @Override
                            public void onPull() {
                                pull(fromNet);
                            }

                            @Override
                            public void onDownstreamFinish(Throwable cause) {
                                cancel(fromNet, cause);
                            }
                        });
                setHandler(
                        fromNet,
                        new AbstractInHandler() {
                            @Override
                            public void onPush() {
                                first = first.concat(grab(fromNet));
                                switch (verdict(first)) {
                                    case TLS -> passToTls();
                                    case PLAIN_HTTP -> answerPlainHttp();
                                    case NOT_TLS -> closeSilently();
                                    case UNDECIDED -> pull(fromNet);
                                }
                            }

                            @Override
                            public void onUpstreamFinish() {
                                // Gone before its first bytes said anything: Go closes such
                                // a connection without a word too.
                                completeStage();
                            }
                        });
            }

            @Override
            public void preStart() {
                scheduleOnce(HANDSHAKE, handshakeTimeout);
                AsyncCallback<Done> handshaken = createAsyncCallback(d -> cancelTimer(HANDSHAKE));
                handshake.thenRun(() -> handshaken.invoke(Done.getInstance()));
            }

            /** From now on the network's bytes go to TLS as they come. */
            private void passToTls() {
                ByteString held = first;
                first = null;
                setHandler(
                        fromNet,
                        new AbstractInHandler() {
                            @Override
                            public void onPush() {
                                push(toTls, grab(fromNet));
                            }

                            @Override
                            public void onUpstreamFinish() {
                                complete(toTls);
                            }
                        });
                push(toTls, held);
            }

            private void answerPlainHttp() {
                log.debug("answering a plain HTTP request to the secure port");
                cancelTimer(HANDSHAKE);
                // The rest of the request stays unread, as in Go. The answer goes out before the
                // network's side is cancelled: the TCP stage closes at once on a cancel that finds
                // no write in progress.
                emit(toNet, PLAIN_HTTP_ANSWER, this::completeStage);
            }

            private void closeSilently() {
                log.debug("closing a connection whose first bytes are not a TLS record");
                completeStage();
            }

            @Override
            public void onTimer(Object key) {
                log.debug("closing a connection that did not finish its TLS handshake in time");
                completeStage();
            }
        };
    }

    private static final String HANDSHAKE = "handshake";
}
