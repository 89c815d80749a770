package io.kubepekko.http.server;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.TLSProtocol.SendBytes;
import org.apache.pekko.stream.TLSProtocol.SessionBytes;
import org.apache.pekko.stream.TLSProtocol.SslTlsInbound;
import org.apache.pekko.stream.TLSProtocol.SslTlsOutbound;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.util.ByteString;

/**
 * One connection's {@link FusedTls}: drives its engine from the stream's callbacks. Each callback
 * runs {@link #pump}, which wraps and unwraps all it can with what is at hand, pushes what is
 * ready, then asks for what it needs; the closing and failure rules are {@link FusedTls}'s.
 */
final class FusedTlsLogic extends GraphStageLogic {
    /** Records a single wrap may add to one chunk sent down. */
    private static final int RECORDS_PER_CHUNK = 2;

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final Inlet<SslTlsOutbound> plainIn;
    private final Outlet<ByteString> cipherOut;
    private final Inlet<ByteString> cipherIn;
    private final Outlet<SslTlsInbound> plainOut;
    private final Supplier<SSLEngine> engines;
    private final Consumer<SSLSession> callback;

    private SSLEngine engine;
    private SSLSession session;

    /** The session's largest record and largest record's plain bytes (asked once). */
    private int packetSize;

    private int applicationSize;
    private boolean handshakeDone;

    /**
     * The last result's handshake status was NEED_WRAP: kept, as asking the engine takes its lock.
     */
    private boolean engineWantsWrap;

    /** Encrypted bytes received and not yet decrypted. */
    private CipherBytes netIn;

    /** Plain bytes of the layer above not yet encrypted. */
    private PlainBytes plain;

    /** Decryption's target (write mode, cleared for each use). */
    private ByteBuffer appOut;

    /** Encryption's target (write mode, cleared for each use). */
    private ByteBuffer netOut;

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

    FusedTlsLogic(
            BidiShape<SslTlsOutbound, ByteString, ByteString, SslTlsInbound> shape,
            Supplier<SSLEngine> engines,
            Consumer<SSLSession> callback) {
        super(shape);
        this.plainIn = shape.in1();
        this.cipherOut = shape.out1();
        this.cipherIn = shape.in2();
        this.plainOut = shape.out2();
        this.engines = engines;
        this.callback = callback;
        setHandler(
                plainIn,
                new AbstractInHandler() {
                    @Override
                    public void onPush() {
                        if (grab(plainIn) instanceof SendBytes send) {
                            plain.add(send.bytes());
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
                        netIn.append(grab(cipherIn));
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
        netIn = new CipherBytes(packetSize);
        plain = new PlainBytes(applicationSize);
        appOut = ByteBuffer.allocate(2 * applicationSize);
        netOut = ByteBuffer.allocate(RECORDS_PER_CHUNK * packetSize);
        try {
            engine.beginHandshake();
            engineWantsWrap = engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP;
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
        if (!closing && isClosed(plainIn) && plain.isEmpty()) {
            closing = true;
            engine.closeOutbound();
        }
    }

    private boolean wantsWrap() {
        boolean toWrap = closing || engineWantsWrap || (handshakeDone && !plain.isEmpty());
        return toWrap && !engine.isOutboundDone();
    }

    /** Encrypts into one chunk for the network; whether anything was consumed or produced. */
    private boolean wrap() throws SSLException {
        netOut.clear();
        boolean progress = false;
        while (true) {
            SSLEngineResult r = engine.wrap(handshakeDone ? plain.source() : NOTHING, netOut);
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
                    throw new IllegalStateException("the TLS engine asks to wrap, wraps nothing");
                }
                break;
            }
            boolean more = hs == HandshakeStatus.NEED_WRAP || (handshakeDone && !plain.isEmpty());
            if (!more || netOut.remaining() < packetSize) {
                break;
            }
        }
        if (netOut.position() > 0) {
            toNetwork = ByteString.fromArray(netOut.array(), 0, netOut.position());
        }
        return progress;
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
            SSLEngineResult r = engine.unwrap(netIn.buffer(), appOut);
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
        engineWantsWrap = hs == HandshakeStatus.NEED_WRAP;
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
     * Ends the stage once nothing more can be exchanged: the server's {@code close_notify} written,
     * or the peer gone and what it sent passed up.
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
        if (plain.gathered() < applicationSize
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
}
