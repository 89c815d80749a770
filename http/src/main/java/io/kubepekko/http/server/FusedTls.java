package io.kubepekko.http.server;

import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
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
 * The engine is driven by {@link FusedTlsLogic}, one per connection.
 */
final class FusedTls
        extends GraphStage<BidiShape<SslTlsOutbound, ByteString, ByteString, SslTlsInbound>> {

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
        return new FusedTlsLogic(shape, engines, callback);
    }
}
