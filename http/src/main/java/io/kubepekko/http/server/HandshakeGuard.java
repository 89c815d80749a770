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
 *       RecordHeaderError}. Any other start goes to TLS unchanged, and at once when its first bytes
 *       already differ from every such start (a ClientHello's first byte, 0x16, does).
 *   <li>one that does not finish its handshake: the connection is closed {@code handshakeTimeout}
 *       after it was accepted (Go's {@code tlsHandshakeTimeout}, the smallest positive of its
 *       read-header, read and write timeouts: kube-apiserver's {@code ReadHeaderTimeout}, 32 s).
 * </ul>
 *
 * <p>It sits between the TCP connection and the TLS stage, one per connection; {@code handshake}
 * completes when the TLS stage has finished the handshake. Once the first bytes are judged TLS and
 * the handshake is done, it only passes bytes on, with no work of its own.
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

    /** What a connection's first bytes say it speaks. */
    enum Verdict {
        TLS,
        PLAIN_HTTP,
        /** Fewer than five bytes, all of them the start of a plain HTTP request so far. */
        UNDECIDED
    }

    /** What {@code first}, the connection's bytes so far, say it speaks. */
    static Verdict verdict(ByteString first) {
        int n = Math.min(first.size(), RECORD_HEADER);
        ByteString head = first.take(n);
        for (ByteString start : HTTP_STARTS) {
            if (start.take(n).equals(head)) {
                return n == RECORD_HEADER ? Verdict.PLAIN_HTTP : Verdict.UNDECIDED;
            }
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

            @Override
            public void onTimer(Object key) {
                log.debug("closing a connection that did not finish its TLS handshake in time");
                completeStage();
            }
        };
    }

    private static final String HANDSHAKE = "handshake";
}
