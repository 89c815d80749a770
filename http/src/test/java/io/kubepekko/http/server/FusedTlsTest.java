package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.http.TestPki;
import io.kubepekko.http.security.SecureServing;
import io.kubepekko.http.security.TlsServing;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.stream.TLSClosing;
import org.apache.pekko.stream.TLSProtocol.SendBytes;
import org.apache.pekko.stream.TLSProtocol.SessionBytes;
import org.apache.pekko.stream.TLSProtocol.SslTlsInbound;
import org.apache.pekko.stream.TLSProtocol.SslTlsOutbound;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.javadsl.TLS;
import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The secure port's TLS stage against Pekko's own TLS as the client, in memory: data of many
 * records both ways, the session and client certificate handed up, both ways of closing, and bytes
 * that are not TLS.
 */
class FusedTlsTest {
    private static ActorSystem system;
    private static Supplier<SSLEngine> serverEngines;

    @BeforeAll
    static void start() {
        system = ActorSystem.create("FusedTlsTest");
        serverEngines = TlsServing.engines(TestPki.material(), SecureServing.generated());
    }

    @AfterAll
    static void stop() {
        system.terminate();
    }

    @Test
    void dataOfManyRecordsComesBackWholeAndTheSessionCarriesTheClientCertificate()
            throws Exception {
        byte[] sent = new byte[1_000_000];
        new Random(7).nextBytes(sent);
        List<SslTlsOutbound> chunks = new ArrayList<>();
        for (int at = 0, size = 1; at < sent.length; at += size, size = size * 3 % 70_001 + 1) {
            chunks.add(
                    new SendBytes(
                            ByteString.fromArray(sent, at, Math.min(size, sent.length - at))));
        }
        CompletableFuture<SSLSession> handshaken = new CompletableFuture<>();
        AtomicLong received = new AtomicLong();
        ByteString echoed =
                Source.from(chunks)
                        .concat(Source.never())
                        .via(client().join(echoServer(handshaken::complete)))
                        .map(in -> ((SessionBytes) in).bytes())
                        .takeWhile(b -> received.addAndGet(b.size()) < sent.length, true)
                        .runWith(
                                Sink.fold(ByteString.emptyByteString(), ByteString::concat), system)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);

        assertArrayEquals(sent, echoed.toArray());
        X509Certificate client = (X509Certificate) handshaken.get().getPeerCertificates()[0];
        assertEquals(
                TestPki.material().admin().orElseThrow().certificate(),
                client,
                "the admin's certificate, as presented");
    }

    @Test
    void aClientThatClosesEndsTheServersSideToo() throws Exception {
        CompletableFuture<Done> serverEnded = new CompletableFuture<>();
        Flow<ByteString, ByteString, NotUsed> server =
                echoServer(s -> {})
                        .watchTermination(
                                (mat, done) -> {
                                    done.whenComplete(
                                            (d, failure) ->
                                                    serverEnded.complete(Done.getInstance()));
                                    return mat;
                                });
        Source.<SslTlsOutbound>single(new SendBytes(ByteString.fromString("bye")))
                .via(client().join(server))
                .runWith(Sink.seq(), system)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);

        serverEnded.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aServerThatIsDoneSendsWhatItHasThenCloseNotifyAndTheClientEndsCleanly() throws Exception {
        Flow<SslTlsInbound, SslTlsOutbound, NotUsed> answerOnce =
                Flow.of(SslTlsInbound.class)
                        .take(1)
                        .map(in -> (SslTlsOutbound) new SendBytes(ByteString.fromString("done")));
        List<SslTlsInbound> got =
                Source.<SslTlsOutbound>single(new SendBytes(ByteString.fromString("hello")))
                        .concat(Source.never())
                        .via(client().join(server(s -> {}).reversed().join(answerOnce)))
                        .runWith(Sink.seq(), system)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);

        assertEquals(1, got.size(), "the answer, then the end: no truncation, " + got);
        assertEquals("done", ((SessionBytes) got.get(0)).bytes().utf8String());
    }

    @Test
    void bytesThatAreNotTlsGetAnAlertAndFailTheLayerAbove() throws Exception {
        CompletableFuture<Throwable> above = new CompletableFuture<>();
        Flow<SslTlsInbound, SslTlsOutbound, NotUsed> app =
                Flow.of(SslTlsInbound.class)
                        .watchTermination(
                                (mat, done) -> {
                                    done.whenComplete(
                                            (d, failure) ->
                                                    above.complete(
                                                            failure != null
                                                                    ? failure
                                                                    : new AssertionError(
                                                                            "completed")));
                                    return mat;
                                })
                        .map(in -> (SslTlsOutbound) new SendBytes(ByteString.emptyByteString()));
        // A handshake record header, then a body that is no ClientHello.
        ByteString garbage =
                ByteString.fromArray(
                        new byte[] {0x16, 0x03, 0x01, 0x00, 0x08, 1, 0, 0, 4, 9, 9, 9, 9});
        ByteString written =
                Source.single(garbage)
                        .concat(Source.never())
                        .via(server(s -> {}).reversed().join(app))
                        .runWith(
                                Sink.fold(ByteString.emptyByteString(), ByteString::concat), system)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);

        assertTrue(written.size() >= 7, "an alert record was written: " + written);
        assertEquals(0x15, written.apply(0) & 0xff, "an alert record: " + written);
        assertInstanceOf(SSLException.class, above.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aHandshakeCallbackThatThrowsFailsTheConnection() {
        ExecutionException failed =
                assertThrows(
                        ExecutionException.class,
                        () ->
                                Source.<SslTlsOutbound>single(
                                                new SendBytes(ByteString.fromString("x")))
                                        .concat(Source.never())
                                        .via(
                                                client().join(
                                                                echoServer(
                                                                        s -> {
                                                                            throw new IllegalStateException(
                                                                                    "refused");
                                                                        })))
                                        .runWith(Sink.seq(), system)
                                        .toCompletableFuture()
                                        .get(30, TimeUnit.SECONDS));
        assertTrue(failed.getCause() instanceof Exception, failed.toString());
    }

    private static BidiFlow<SslTlsOutbound, ByteString, ByteString, SslTlsInbound, NotUsed> server(
            Consumer<SSLSession> callback) {
        return FusedTls.create(serverEngines, callback);
    }

    /** The server with an application that sends back whatever it receives. */
    private static Flow<ByteString, ByteString, NotUsed> echoServer(Consumer<SSLSession> callback) {
        return server(callback)
                .reversed()
                .join(
                        Flow.of(SslTlsInbound.class)
                                .filter(in -> in instanceof SessionBytes)
                                .map(
                                        in ->
                                                (SslTlsOutbound)
                                                        new SendBytes(
                                                                ((SessionBytes) in).bytes())));
    }

    /** Pekko's TLS as the client, with the admin's certificate, trusting the server CA. */
    private static BidiFlow<SslTlsOutbound, ByteString, ByteString, SslTlsInbound, NotUsed>
            client() {
        return TLS.create(
                () -> {
                    SSLEngine e = TestPki.admin().createSSLEngine("localhost", 443);
                    e.setUseClientMode(true);
                    return e;
                },
                TLSClosing.eagerClose());
    }
}
