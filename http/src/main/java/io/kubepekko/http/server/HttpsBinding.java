package io.kubepekko.http.server;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.event.LoggingAdapter;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.apache.pekko.http.scaladsl.Http;
import org.apache.pekko.http.scaladsl.HttpExt;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.TLSProtocol.SslTlsInbound;
import org.apache.pekko.stream.TLSProtocol.SslTlsOutbound;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Tcp;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.concurrent.duration.FiniteDuration;

/**
 * The secure port's TCP listener, and on each connection it accepts the layers Pekko HTTP's own
 * HTTPS binding stacks (its HTTP server layer, TLS, the connection idle timeout), with TLS served
 * by {@link FusedTls} rather than Pekko's TLS actor, {@link HandshakeGuard} between TLS and the
 * network and {@link HeaderDeadline} between the HTTP layer and the handler. Pekko's binding has no
 * place for a stage under its TLS, which the guard needs (it sees the connection's first bytes and
 * whether the handshake has ended), so the connections are assembled here from the same public
 * parts, with the same settings ({@code pekko.http.server}: backlog, socket options,
 * max-connections, idle-timeout, and what the server layer reads).
 *
 * <p>{@link #terminate} does what Pekko's {@code ServerBinding.terminate} does, with {@link
 * HeaderDeadline} as each connection's terminator: no new connections; an idle connection closes at
 * once, one serving a request after its response (sent with {@code Connection: close}), and any
 * still open at the deadline is closed then.
 */
final class HttpsBinding {
    private static final Logger log = LoggerFactory.getLogger(HttpsBinding.class);

    private final Tcp.ServerBinding tcp;
    private final Connections connections;

    private HttpsBinding(Tcp.ServerBinding tcp, Connections connections) {
        this.tcp = tcp;
        this.connections = connections;
    }

    /**
     * Listens on {@code address}:{@code port} and serves each connection with {@code handler}, one
     * materialization per connection.
     *
     * @param engines a new server-side TLS engine for each connection
     * @param headerTimeout the time a connection has for its TLS handshake, and then for each
     *     request head (see {@link HeaderDeadline})
     * @param keepAliveTimeout how long a kept-alive connection may wait for its next request
     */
    static HttpsBinding bind(
            ActorSystem<Void> system,
            String address,
            int port,
            ServerSettings settings,
            Supplier<SSLEngine> engines,
            Flow<HttpRequest, HttpResponse, ?> handler,
            Duration headerTimeout,
            Duration keepAliveTimeout)
            throws Exception {
        Materializer materializer = Materializer.matFromSystem(system);
        Connections connections =
                new Connections(
                        system, settings, engines, handler, headerTimeout, keepAliveTimeout);
        Tcp.ServerBinding tcp =
                Tcp.get(system)
                        .bind(
                                address,
                                port,
                                settings.getBacklog(),
                                settings.getSocketOptions(),
                                false,
                                // The connection's idle timeout is a layer of its own, as in Pekko.
                                Optional.empty())
                        .mapAsyncUnordered(
                                settings.getMaxConnections(),
                                incoming -> connections.serve(incoming, materializer))
                        .to(Sink.ignore())
                        .run(materializer)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
        return new HttpsBinding(tcp, connections);
    }

    InetSocketAddress localAddress() {
        return tcp.localAddress();
    }

    /**
     * Stops accepting connections and ends the open ones (see the class comment); completes once
     * every connection has closed.
     */
    CompletionStage<Done> terminate(Duration hardDeadline) {
        CompletionStage<Done> drained = connections.drain(hardDeadline);
        return tcp.unbind().thenCompose(unbound -> drained);
    }

    /** The connections served, and how each is assembled. */
    private static final class Connections {
        private final ServerSettings settings;
        private final Supplier<SSLEngine> engines;
        private final Flow<HttpRequest, HttpResponse, ?> handler;
        private final Duration headerTimeout;
        private final Duration keepAliveTimeout;
        private final HttpExt http;
        private final LoggingAdapter pekkoLog;

        /** Open connections, until {@link #drain}. Guarded by this. */
        private final Set<HeaderDeadline.Connection> open = new HashSet<>();

        /** Set by {@link #drain}: a connection accepted afterwards is drained at once. */
        private Duration hardDeadline;

        Connections(
                ActorSystem<Void> system,
                ServerSettings settings,
                Supplier<SSLEngine> engines,
                Flow<HttpRequest, HttpResponse, ?> handler,
                Duration headerTimeout,
                Duration keepAliveTimeout) {
            this.settings = settings;
            this.engines = engines;
            this.handler = handler;
            this.headerTimeout = headerTimeout;
            this.keepAliveTimeout = keepAliveTimeout;
            this.http = Http.apply(system);
            this.pekkoLog = system.classicSystem().log();
        }

        /** Serves {@code incoming}; completes when its connection has ended. */
        CompletionStage<Done> serve(Tcp.IncomingConnection incoming, Materializer materializer) {
            try {
                Pair<HeaderDeadline.Connection, CompletionStage<Done>> served =
                        incoming.handleWith(stack(incoming.remoteAddress()), materializer);
                register(served.first());
                // A connection that failed is over all the same; a failure here would stop the
                // listener.
                return served.second().handle((done, failure) -> Done.getInstance());
            } catch (RuntimeException e) {
                log.error("could not serve the connection from {}", incoming.remoteAddress(), e);
                return CompletableFuture.completedFuture(Done.getInstance());
            }
        }

        /** One connection's layers, the handler on top, the network's bytes below. */
        private Flow<ByteString, ByteString, Pair<HeaderDeadline.Connection, CompletionStage<Done>>>
                stack(InetSocketAddress remote) {
            CompletableFuture<Done> handshake = new CompletableFuture<>();
            BidiFlow<SslTlsOutbound, ByteString, ByteString, SslTlsInbound, NotUsed> tls =
                    FusedTls.create(engines, session -> handshake.complete(Done.getInstance()));
            BidiFlow<ByteString, ByteString, ByteString, ByteString, NotUsed> network =
                    connectionIdleTimeout().atop(HandshakeGuard.create(headerTimeout, handshake));
            return HeaderDeadline.around(handler, headerTimeout, keepAliveTimeout, handshake)
                    .joinMat(serverLayer(remote).atop(tls).atop(network), Keep.left())
                    .watchTermination(Pair::create)
                    .addAttributes(cancellationDelay());
        }

        /**
         * Pekko HTTP's server layer, as its HTTPS binding makes it: for a secure connection (its
         * requests' URIs are https), with the peer's address for the remote-address attribute.
         */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private BidiFlow<HttpResponse, SslTlsOutbound, SslTlsInbound, HttpRequest, NotUsed>
                serverLayer(InetSocketAddress remote) {
            // The Scala API, the Java one has no secure-connection flag; its model types are the
            // Java API's (each Java HttpRequest/HttpResponse is a Scala one), as Pekko's own Java
            // binding takes them.
            return (BidiFlow)
                    http.serverLayer(
                                    (org.apache.pekko.http.scaladsl.settings.ServerSettings)
                                            settings,
                                    Option.apply(remote),
                                    pekkoLog,
                                    true)
                            .asJava();
        }

        /** Pekko's connection idle timeout ({@code pekko.http.server.idle-timeout}). */
        private BidiFlow<ByteString, ByteString, ByteString, ByteString, NotUsed>
                connectionIdleTimeout() {
            scala.concurrent.duration.Duration idle = settings.getTimeouts().idleTimeout();
            return idle instanceof FiniteDuration finite
                    ? BidiFlow.bidirectionalIdleTimeout(Duration.ofNanos(finite.toNanos()))
                    : BidiFlow.identity();
        }

        /** As Pekko's binding sets it on each connection. */
        private Attributes cancellationDelay() {
            FiniteDuration delay = settings.getStreamCancellationDelay();
            return Attributes.apply(
                    new Attributes.CancellationStrategy(
                            delay.length() == 0
                                    ? Attributes.cancellationStrategyFailStage()
                                    : Attributes.cancellationStrategyAfterDelay(
                                            delay, Attributes.cancellationStrategyFailStage())));
        }

        private synchronized void register(HeaderDeadline.Connection connection) {
            if (hardDeadline != null) {
                connection.drain(hardDeadline);
                return;
            }
            open.add(connection);
            connection.stopped().thenRun(() -> unregister(connection));
        }

        private synchronized void unregister(HeaderDeadline.Connection connection) {
            open.remove(connection);
        }

        synchronized CompletionStage<Done> drain(Duration deadline) {
            if (hardDeadline == null) {
                hardDeadline = deadline;
            }
            List<CompletableFuture<Done>> closing = new ArrayList<>();
            for (HeaderDeadline.Connection c : open) {
                closing.add(c.drain(hardDeadline).toCompletableFuture());
            }
            open.clear();
            return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
                    .thenApply(all -> Done.getInstance());
        }
    }
}
