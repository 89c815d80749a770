package io.kubepekko.http.server;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.TLSProtocol.SendBytes;
import org.apache.pekko.stream.TLSProtocol.SessionBytes;
import org.apache.pekko.stream.TLSProtocol.SslTlsInbound;
import org.apache.pekko.stream.TLSProtocol.SslTlsOutbound;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.util.ByteString;

/**
 * The server side of TLS over a JDK {@link SSLEngine}, as a stage of the connection's own stream,
 * in place of Pekko's TLS: that one runs as an actor of its own per connection, so each chunk of a
 * request and of its response crossed two more asynchronous boundaries (a mailbox, often a thread
 * to wake), which in a profile of single-object GETs cost more than the cipher itself. Here the
 * engine is driven from the stream's own callbacks, on the connection's thread, with no hand-off.
 *
 * <p>Pekko's {@code TLS} shape, and its behaviour with {@code TLSClosing.eagerClose()} but for a
 * cancelled input:
 *
 * <ul>
 *   <li>{@code callback} is called with the session once the handshake has finished, before any of
 *       its application data is passed up; if it throws, the connection fails.
 *   <li>Decrypted bytes go up as {@link SessionBytes} of that session; the bytes of each {@link
 *       SendBytes} go down encrypted. Nothing else is sent down by the HTTP layer.
 *   <li>When the upper layer completes its output (after a {@code Connection: close} response) the
 *       server sends its {@code close_notify} and the connection ends once it is written; when it
 *       cancels its input, nothing more is read (its last response may still be on its way down:
 *       the cancellation can overtake it); when the peer closes (its {@code close_notify}, or the
 *       TCP connection without one) what has been decrypted is passed up and the connection ends.
 *       The server does not wait for the peer's {@code close_notify}, as Go's {@code
 *       tls.Conn.Close} does not.
 *   <li>Bytes that are not valid TLS fail the upper layer's input with the engine's {@link
 *       SSLException}, after the engine's alert has been written down.
 * </ul>
 *
 * <p>Delegated tasks (certificate checks, key agreement) run inline, as Pekko's stage runs them.
 */
final class FusedTls
        extends GraphStage<BidiShape<SslTlsOutbound, ByteString, ByteString, SslTlsInbound>> {

    /** Records a single wrap may add to one chunk sent down. */
    private static final int RECORDS_PER_CHUNK = 2;

    private final Inlet<SslTlsOutbound> plainIn = Inlet.create("FusedTls.plainIn");
    private final Outlet<ByteString> cipherOut = Outlet.create("FusedTls.cipherOut");
    private final Inlet<ByteString> cipherIn = Inlet.create("FusedTls.cipherIn");
    private final Outlet<SslTlsInbound> plainOut = Outlet.create("FusedTls.plainOut");
    private final BidiShape<SslTlsOutbound, ByteString, ByteString, SslTlsInbound> shape =
            BidiShape.of(plainIn, cipherOut, cipherIn, plainOut);

    private final Supplier<SSLEngine> engines;
    private final Consumer<SSLSession> callback;

    private FusedTls(Supplier<SSLEngine> engines, Consumer<SSLSession> callback) {
        this.engines = engines;
        this.callback = callback;
    }

    /**
     * Server-side TLS: plain bytes from and to the layer above, encrypted bytes to and from the
     * network below, one engine from {@code engines} per materialization.
     *
     * @param callback called with the session when the handshake has finished
     */
    static BidiFlow<SslTlsOutbound, ByteString, ByteString, SslTlsInbound, NotUsed> create(
            Supplier<SSLEngine> engines, Consumer<SSLSession> callback) {
        return BidiFlow.fromGraph(new FusedTls(engines, callback));
    }

    @Override
    public BidiShape<SslTlsOutbound, ByteString, ByteString, SslTlsInbound> shape() {
        return shape;
    }

    @Override
    public GraphStageLogic createLogic(Attributes inheritedAttributes) {
        return new Logic();
    }

    private final class Logic extends GraphStageLogic {
        private SSLEngine engine;
        private SSLSession session;

        /** The session's largest record and largest record's plain bytes (asked once). */
        private int packetSize;

        private int applicationSize;
        private boolean handshakeDone;

        /** Encrypted bytes received and not yet decrypted (read mode). */
        private ByteBuffer netIn;

        /** Plain bytes of the layer above not yet encrypted (read mode). */
        private ByteBuffer appIn;

        /** Decryption's target (write mode, cleared for each use). */
        private ByteBuffer appOut;

        /** Encryption's target (write mode, cleared for each use). */
        private ByteBuffer netOut;

        /** What the layer above sent that {@link #appIn} does not hold yet. */
        private ByteString userPending = ByteString.emptyByteString();

        private ByteString toNetwork;
        private SslTlsInbound toUser;

        /** {@link #netIn} holds no whole record: more bytes must come from the network. */
        private boolean starved = true;

        /** The peer has closed (its close_notify, or TCP without one). */
        private boolean peerClosed;

        /**
         * The layer above cancelled its input: nothing more is read; the connection closes when it
         * completes its output (its last response may still be on its way down).
         */
        private boolean inputUnwanted;

        /** The engine's outbound side is closed: only its closing records remain to write. */
        private boolean closing;

        /** Failed: the alert is being written, nothing else is done. */
        private boolean failed;

        Logic() {
            super(shape);
            setHandler(
                    plainIn,
                    new AbstractInHandler() {
                        @Override
                        public void onPush() {
                            if (grab(plainIn) instanceof SendBytes send) {
                                userPending = userPending.concat(send.bytes());
                            }
                            pump();
                        }

                        @Override
                        public void onUpstreamFinish() {
                            pump();
                        }
                    });
            setHandler(
                    cipherIn,
                    new AbstractInHandler() {
                        @Override
                        public void onPush() {
                            append(grab(cipherIn));
                            starved = false;
                            pump();
                        }

                        @Override
                        public void onUpstreamFinish() {
                            pump();
                        }
                    });
            setHandler(
                    plainOut,
                    new AbstractOutHandler() {
                        @Override
                        public void onPull() {
                            pump();
                        }

                        @Override
                        public void onDownstreamFinish(Throwable cause) {
                            inputUnwanted = true;
                            pump();
                        }
                    });
            setHandler(
                    cipherOut,
                    new AbstractOutHandler() {
                        @Override
                        public void onPull() {
                            pump();
                        }
                    });
        }

        @Override
        public void preStart() {
            engine = engines.get();
            SSLSession s = engine.getSession();
            packetSize = s.getPacketBufferSize();
            applicationSize = s.getApplicationBufferSize();
            netIn = ByteBuffer.allocate(packetSize).flip();
            appIn = ByteBuffer.allocate(applicationSize).flip();
            appOut = ByteBuffer.allocate(2 * applicationSize);
            netOut = ByteBuffer.allocate(RECORDS_PER_CHUNK * packetSize);
            try {
                engine.beginHandshake();
            } catch (SSLException e) {
                failStage(e);
                return;
            }
            pump();
        }

        /** Does all the engine can do with what is at hand, then asks for what it needs. */
        private void pump() {
            if (failed) {
                return;
            }
            try {
                boolean progress;
                do {
                    progress = false;
                    closeOutboundWhenDrained();
                    if (toNetwork == null && wantsWrap()) {
                        progress |= wrap();
                    }
                    if (toUser == null && !peerClosed && !inputUnwanted && !closing) {
                        progress |= unwrap();
                    }
                    progress |= flush();
                } while (progress);
                if (!finishIfDone()) {
                    demand();
                }
            } catch (SSLException e) {
                failWithAlert(e);
            }
        }

        /**
         * Closes the engine's outbound side once the layer above has completed its output and
         * everything it sent is encrypted.
         */
        private void closeOutboundWhenDrained() {
            if (!closing && isClosed(plainIn) && userPending.isEmpty() && !appIn.hasRemaining()) {
                closing = true;
                engine.closeOutbound();
            }
        }

        private boolean wantsWrap() {
            return !engine.isOutboundDone()
                    && (closing
                            || engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP
                            || (handshakeDone && (appIn.hasRemaining() || !userPending.isEmpty())));
        }

        /** Encrypts into one chunk for the network; whether anything was consumed or produced. */
        private boolean wrap() throws SSLException {
            netOut.clear();
            boolean progress = false;
            while (true) {
                if (handshakeDone && !appIn.hasRemaining() && !userPending.isEmpty()) {
                    chop();
                }
                SSLEngineResult r = engine.wrap(appIn, netOut);
                HandshakeStatus hs = afterTasks(r);
                boolean moved = r.bytesConsumed() > 0 || r.bytesProduced() > 0;
                progress |= moved;
                if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    if (netOut.position() == 0) {
                        netOut = ByteBuffer.allocate(2 * netOut.capacity());
                        continue;
                    }
                    break;
                }
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    break;
                }
                if (!moved) {
                    if (hs == HandshakeStatus.NEED_WRAP) {
                        // A JDK engine has been seen to loop so (Pekko guards against it too).
                        throw new IllegalStateException(
                                "the TLS engine asks to wrap, wraps nothing");
                    }
                    break;
                }
                boolean more =
                        hs == HandshakeStatus.NEED_WRAP
                                || (handshakeDone
                                        && (appIn.hasRemaining() || !userPending.isEmpty()));
                if (!more || netOut.remaining() < packetSize) {
                    break;
                }
            }
            if (netOut.position() > 0) {
                toNetwork = ByteString.fromArray(netOut.array(), 0, netOut.position());
            }
            return progress;
        }

        /** Moves as much of {@link #userPending} into {@link #appIn} as it holds. */
        private void chop() {
            appIn.clear();
            int n = Math.min(appIn.remaining(), userPending.size());
            userPending.take(n).copyToBuffer(appIn);
            userPending = userPending.drop(n);
            appIn.flip();
        }

        /** Decrypts what {@link #netIn} holds; whether anything was consumed or produced. */
        private boolean unwrap() throws SSLException {
            if (!netIn.hasRemaining()) {
                starved = true;
                return false;
            }
            appOut.clear();
            boolean progress = false;
            while (netIn.hasRemaining()) {
                SSLEngineResult r = engine.unwrap(netIn, appOut);
                HandshakeStatus hs = afterTasks(r);
                progress |= r.bytesConsumed() > 0 || r.bytesProduced() > 0;
                SSLEngineResult.Status status = r.getStatus();
                if (status == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                    // the rest of the record is to come: append makes room for it
                    starved = true;
                    break;
                }
                if (status == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    if (appOut.position() == 0) {
                        appOut = ByteBuffer.allocate(2 * appOut.capacity());
                        continue;
                    }
                    break;
                }
                if (status == SSLEngineResult.Status.CLOSED) {
                    peerClosed = true;
                    break;
                }
                if (r.bytesConsumed() == 0 || hs == HandshakeStatus.NEED_WRAP) {
                    break;
                }
                if (appOut.remaining() < applicationSize) {
                    break;
                }
            }
            if (!netIn.hasRemaining()) {
                starved = true;
            }
            if (appOut.position() > 0) {
                toUser =
                        new SessionBytes(
                                session != null ? session : engine.getSession(),
                                ByteString.fromArray(appOut.array(), 0, appOut.position()));
            }
            return progress;
        }

        /** Runs the engine's delegated tasks; notes the end of the handshake. */
        private HandshakeStatus afterTasks(SSLEngineResult r) {
            HandshakeStatus hs = r.getHandshakeStatus();
            if (hs == HandshakeStatus.FINISHED) {
                handshakeFinished();
                hs = engine.getHandshakeStatus();
            }
            if (hs == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
                hs = engine.getHandshakeStatus();
            }
            return hs;
        }

        private void handshakeFinished() {
            session = engine.getSession();
            packetSize = Math.max(packetSize, session.getPacketBufferSize());
            applicationSize = Math.max(applicationSize, session.getApplicationBufferSize());
            handshakeDone = true;
            callback.accept(session);
        }

        /** Pushes what is ready where it is wanted; whether anything was pushed. */
        private boolean flush() {
            boolean pushed = false;
            if (toNetwork != null && isAvailable(cipherOut)) {
                push(cipherOut, toNetwork);
                toNetwork = null;
                pushed = true;
            }
            if (toUser != null && isAvailable(plainOut)) {
                push(plainOut, toUser);
                toUser = null;
                pushed = true;
            }
            return pushed;
        }

        /**
         * Ends the stage once nothing more can be exchanged: the server's {@code close_notify}
         * written, or the peer gone and what it sent passed up.
         */
        private boolean finishIfDone() throws SSLException {
            if (isClosed(cipherOut)) {
                completeStage();
                return true;
            }
            boolean inputOver = isClosed(cipherIn) && (starved || !netIn.hasRemaining());
            if ((inputOver || peerClosed) && !closing) {
                if (inputOver && !peerClosed) {
                    closeInboundQuietly();
                }
                peerClosed = true;
                closing = true;
                if (toUser == null) {
                    complete(plainOut);
                }
                return pumpClosing();
            }
            if (peerClosed && toUser == null && !isClosed(plainOut)) {
                complete(plainOut);
            }
            if (closing && toNetwork == null && (engine.isOutboundDone() || peerClosed)) {
                completeStage();
                return true;
            }
            return false;
        }

        /** Lets the engine write its closing records (or not, if the peer is gone). */
        private boolean pumpClosing() throws SSLException {
            if (!engine.isOutboundDone()) {
                engine.closeOutbound();
                if (toNetwork == null) {
                    wrap();
                    flush();
                }
            }
            if (toNetwork == null && toUser == null) {
                completeStage();
                return true;
            }
            return false;
        }

        private void closeInboundQuietly() {
            try {
                engine.closeInbound();
            } catch (SSLException truncated) {
                // The peer closed TCP without close_notify: nothing is lost that was decrypted.
            }
        }

        private void demand() {
            // Only when no whole record is waiting and the layer above has taken the last one: so
            // what is buffered here stays within a record and a chunk, whatever the peer sends.
            if (starved
                    && toUser == null
                    && !peerClosed
                    && !closing
                    && !inputUnwanted
                    && !hasBeenPulled(cipherIn)
                    && !isClosed(cipherIn)) {
                pull(cipherIn);
            }
            // While the network has not taken the last chunk, what comes from above is gathered
            // (up to a record's worth), to go down as one record and one write: a response's head
            // and body, say, not one each.
            if (userPending.size() < applicationSize
                    && !closing
                    && !hasBeenPulled(plainIn)
                    && !isClosed(plainIn)) {
                pull(plainIn);
            }
        }

        /** Writes the engine's alert for {@code e} if it can, then fails the layer above. */
        private void failWithAlert(SSLException e) {
            failed = true;
            ByteString alert = null;
            try {
                engine.closeOutbound();
                netOut.clear();
                SSLEngineResult r;
                do {
                    r = engine.wrap(ByteBuffer.allocate(0), netOut);
                } while (r.bytesProduced() > 0 && !engine.isOutboundDone());
                if (netOut.position() > 0) {
                    alert = ByteString.fromArray(netOut.array(), 0, netOut.position());
                }
            } catch (SSLException | RuntimeException ignored) {
                // no alert, then
            }
            if (!isClosed(plainOut)) {
                fail(plainOut, e);
            }
            if (alert != null && !isClosed(cipherOut)) {
                ByteString last = toNetwork != null ? toNetwork.concat(alert) : alert;
                toNetwork = null;
                emit(cipherOut, last, this::completeStage);
            } else {
                completeStage();
            }
        }

        private void append(ByteString bytes) {
            netIn.compact();
            if (netIn.remaining() < bytes.size()) {
                ByteBuffer bigger = ByteBuffer.allocate(netIn.position() + bytes.size());
                netIn.flip();
                bigger.put(netIn);
                netIn = bigger;
            }
            bytes.copyToBuffer(netIn);
            netIn.flip();
        }
    }
}
