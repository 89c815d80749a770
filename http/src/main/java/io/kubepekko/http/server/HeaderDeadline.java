package io.kubepekko.http.server;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.ResponseEntity;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.BidiShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.javadsl.BidiFlow;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.AsyncCallback;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.GraphStageWithMaterializedValue;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Closes a connection whose client does not send a request's head in time, as Go's {@code
 * ReadHeaderTimeout} (32 s in kube-apiserver's secure serving) and {@code IdleTimeout} (90 s) do:
 * once its TLS handshake has ended ({@code handshake} completes; {@link HandshakeGuard} gives the
 * handshake its own deadline, as Go does), a new connection has {@code headerTimeout} to deliver
 * its first request line and headers, as Go reads the first request with that deadline from the
 * handshake's end; after a response has been sent in full, a kept-alive connection has {@code
 * idleTimeout + headerTimeout} to deliver the next one (Go allows the idle time until the next
 * request's first bytes, then the header time; the first bytes are not visible here, only the
 * parsed request, so the two are added).
 *
 * <p>It sits between Pekko HTTP's server layer and the request handler, one instance per
 * connection, and sees parsed requests going in and responses going out. While a request is being
 * served (a body being read, a watch streaming for an hour) no deadline runs. After a WebSocket
 * upgrade the connection's bytes no longer pass through the HTTP layer: a deadline that completes
 * this stage then leaves the WebSocket as it is (ProtocolEdgesIT holds a WebSocket watch past both
 * deadlines). Pekko HTTP's own {@code idle-timeout} stays the backstop for a connection quiet in
 * the middle of a request.
 *
 * <p>It is also the connection's end when the server shuts down ({@link Connection#drain}): as Go's
 * {@code Shutdown} and Pekko's graceful termination, an idle connection closes at once, one serving
 * a request after its response, which says {@code Connection: close}.
 */
final class HeaderDeadline
        extends GraphStageWithMaterializedValue<
                BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse>,
                HeaderDeadline.Connection> {
    private static final Logger log = LoggerFactory.getLogger(HeaderDeadline.class);

    private final Inlet<HttpRequest> requestsIn = Inlet.create("HeaderDeadline.requestsIn");
    private final Outlet<HttpRequest> requestsOut = Outlet.create("HeaderDeadline.requestsOut");
    private final Inlet<HttpResponse> responsesIn = Inlet.create("HeaderDeadline.responsesIn");
    private final Outlet<HttpResponse> responsesOut = Outlet.create("HeaderDeadline.responsesOut");
    private final BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape =
            BidiShape.of(requestsIn, requestsOut, responsesIn, responsesOut);

    private final Duration headerTimeout;
    private final Duration idleTimeout;
    private final CompletionStage<?> handshake;

    private HeaderDeadline(
            Duration headerTimeout, Duration idleTimeout, CompletionStage<?> handshake) {
        this.headerTimeout = headerTimeout;
        this.idleTimeout = idleTimeout;
        this.handshake = handshake;
    }

    /** A connection as the server's shutdown sees it. */
    interface Connection {
        /**
         * Closes the connection once no request is in flight (now, or after the response being
         * sent, which then says {@code Connection: close}), and at the latest after {@code
         * hardDeadline}; completes as {@link #stopped}.
         */
        CompletionStage<Done> drain(Duration hardDeadline);

        /** Completes when the connection's HTTP exchange has ended. */
        CompletionStage<Done> stopped();
    }

    /**
     * {@code handler} with the deadlines in front of it, for one connection whose TLS handshake
     * ends with {@code handshake}.
     */
    static Flow<HttpRequest, HttpResponse, Connection> around(
            Flow<HttpRequest, HttpResponse, ?> handler,
            Duration headerTimeout,
            Duration idleTimeout,
            CompletionStage<?> handshake) {
        return BidiFlow.fromGraph(new HeaderDeadline(headerTimeout, idleTimeout, handshake))
                .join(handler);
    }

    @Override
    public BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape() {
        return shape;
    }

    @Override
    public Tuple2<GraphStageLogic, Connection> createLogicAndMaterializedValue(
            Attributes inheritedAttributes) {
        CompletableFuture<Done> stopped = new CompletableFuture<>();
        Logic logic = new Logic(stopped);
        Connection connection =
                new Connection() {
                    @Override
                    public CompletionStage<Done> drain(Duration hardDeadline) {
                        logic.drain.invoke(hardDeadline);
                        return stopped;
                    }

                    @Override
                    public CompletionStage<Done> stopped() {
                        return stopped;
                    }
                };
        return Tuple2.apply(logic, connection);
    }

    private final class Logic extends TimerGraphStageLogic {
        private final CompletableFuture<Done> stopped;

        /** Requests handed to the handler whose responses have not been sent in full. */
        private int open;

        /** Whether a request has come: from then on the first head's deadline is over. */
        private boolean requested;

        /** The server is shutting down: the connection ends with its current exchange. */
        private boolean draining;

        private AsyncCallback<Done> responseSent;

        /** Invoked before the stage has started, it takes effect at the start. */
        final AsyncCallback<Duration> drain = createAsyncCallback(this::onDrain);

        Logic(CompletableFuture<Done> stopped) {
            super(shape);
            this.stopped = stopped;
            setHandler(
                    requestsIn,
                    new AbstractInHandler() {
                        @Override
                        public void onPush() {
                            cancelTimer(DEADLINE);
                            requested = true;
                            open++;
                            push(requestsOut, grab(requestsIn));
                        }

                        @Override
                        public void onUpstreamFinish() {
                            // No more requests (the client is done, or its body broke the
                            // framing): the responses still owed go out before the stage
                            // completes.
                            complete(requestsOut);
                        }
                    });
            setHandler(
                    requestsOut,
                    new AbstractOutHandler() {
                        @Override
                        public void onPull() {
                            pull(requestsIn);
                        }

                        @Override
                        public void onDownstreamFinish(Throwable cause) {
                            cancel(requestsIn, cause);
                        }
                    });
            setHandler(
                    responsesIn,
                    new AbstractInHandler() {
                        @Override
                        public void onPush() {
                            HttpResponse response = grab(responsesIn);
                            if (draining) {
                                response = closing(response);
                            }
                            ResponseEntity entity = response.entity();
                            if (entity instanceof HttpEntity.Strict) {
                                push(responsesOut, response);
                                sent();
                            } else {
                                push(responsesOut, response.withEntity(watched(entity)));
                            }
                        }
                    });
            setHandler(
                    responsesOut,
                    new AbstractOutHandler() {
                        @Override
                        public void onPull() {
                            pull(responsesIn);
                        }

                        @Override
                        public void onDownstreamFinish(Throwable cause) {
                            cancel(responsesIn, cause);
                        }
                    });
        }

        @Override
        public void preStart() {
            responseSent = createAsyncCallback(done -> sent());
            AsyncCallback<Done> handshaken = createAsyncCallback(done -> firstHead());
            handshake.thenRun(() -> handshaken.invoke(Done.getInstance()));
        }

        @Override
        public void postStop() {
            stopped.complete(Done.getInstance());
        }

        /** The handshake has ended: the first head's time starts. */
        private void firstHead() {
            if (!requested && !draining) {
                scheduleOnce(DEADLINE, headerTimeout);
            }
        }

        /**
         * The same entity, calling {@link #sent} once its last byte has gone out (or it failed).
         */
        private ResponseEntity watched(ResponseEntity entity) {
            Source<ByteString, ?> data =
                    entity.getDataBytes()
                            .watchTermination(
                                    (mat, done) -> {
                                        done.whenComplete(
                                                (d, failure) ->
                                                        responseSent.invoke(Done.getInstance()));
                                        return mat;
                                    });
            if (entity instanceof HttpEntity.Default d) {
                return HttpEntities.create(d.getContentType(), d.getContentLength(), data);
            }
            if (entity instanceof HttpEntity.CloseDelimited) {
                return HttpEntities.createCloseDelimited(entity.getContentType(), data);
            }
            // Chunked (watches): one chunk per piece of data, as before; this server sends no
            // trailers.
            return HttpEntities.createChunked(entity.getContentType(), data);
        }

        private void sent() {
            open--;
            if (open == 0) {
                if (draining) {
                    completeStage();
                } else {
                    scheduleOnce(DEADLINE, idleTimeout.plus(headerTimeout));
                }
            }
        }

        private void onDrain(Duration hardDeadline) {
            draining = true;
            cancelTimer(DEADLINE);
            if (open == 0) {
                completeStage();
            } else {
                scheduleOnce(HARD_DEADLINE, hardDeadline);
            }
        }

        @Override
        public void onTimer(Object key) {
            if (HARD_DEADLINE.equals(key)) {
                failStage(new ServerTerminated());
                return;
            }
            log.debug("closing a connection that sent no complete request head in time");
            completeStage();
        }
    }

    /** A response that closes its connection, as Go's and Pekko's servers send while stopping. */
    private static HttpResponse closing(HttpResponse response) {
        return response.removeHeader(CONNECTION).addHeader(HttpHeader.parse(CONNECTION, "close"));
    }

    private static final String CONNECTION = "Connection";
    private static final String DEADLINE = "deadline";
    private static final String HARD_DEADLINE = "hard-deadline";

    /** Fails a connection still serving when the server's shutdown deadline has passed. */
    private static final class ServerTerminated extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ServerTerminated() {
            super("the server's shutdown deadline has passed", null, false, false);
        }
    }
}
