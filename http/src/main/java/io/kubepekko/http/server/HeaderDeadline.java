package io.kubepekko.http.server;

import java.time.Duration;
import org.apache.pekko.Done;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpEntity;
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
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose client does not finish sending a request's head in time, as Go's {@code
 * ReadHeaderTimeout} (32 s in kube-apiserver's secure serving) and {@code IdleTimeout} (90 s) do: a
 * new connection has twice {@code headerTimeout} to finish its TLS handshake and deliver its first
 * request line and headers (Go gives the handshake {@code ReadHeaderTimeout}, the smallest of its
 * read and write timeouts, then the head {@code ReadHeaderTimeout} from the handshake's end; the
 * handshake is not visible here, so the two are added); after a response has been sent in full, a
 * kept-alive connection has {@code idleTimeout + headerTimeout} to deliver the next one (Go allows
 * the idle time until the next request's first bytes, then the header time; the first bytes are not
 * visible here either, only the parsed request, so the two are added).
 *
 * <p>It sits between Pekko HTTP's server layer and the request handler, one instance per
 * connection, and sees parsed requests going in and responses going out. While a request is being
 * served (a body being read, a watch streaming for an hour) no deadline runs. After a WebSocket
 * upgrade the connection's bytes no longer pass through the HTTP layer: a deadline that completes
 * this stage then leaves the WebSocket as it is (ProtocolEdgesIT holds a WebSocket watch past both
 * deadlines). Pekko HTTP's own {@code idle-timeout} stays the backstop for a connection quiet in
 * the middle of a request.
 */
final class HeaderDeadline
        extends GraphStage<BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse>> {
    private static final Logger log = LoggerFactory.getLogger(HeaderDeadline.class);

    private final Inlet<HttpRequest> requestsIn = Inlet.create("HeaderDeadline.requestsIn");
    private final Outlet<HttpRequest> requestsOut = Outlet.create("HeaderDeadline.requestsOut");
    private final Inlet<HttpResponse> responsesIn = Inlet.create("HeaderDeadline.responsesIn");
    private final Outlet<HttpResponse> responsesOut = Outlet.create("HeaderDeadline.responsesOut");
    private final BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape =
            BidiShape.of(requestsIn, requestsOut, responsesIn, responsesOut);

    private final Duration headerTimeout;
    private final Duration idleTimeout;

    HeaderDeadline(Duration headerTimeout, Duration idleTimeout) {
        this.headerTimeout = headerTimeout;
        this.idleTimeout = idleTimeout;
    }

    /**
     * {@code handler} with the deadlines in front of it: the flow to bind, materialized once per
     * connection.
     */
    static Flow<HttpRequest, HttpResponse, ?> around(
            Flow<HttpRequest, HttpResponse, ?> handler,
            Duration headerTimeout,
            Duration idleTimeout) {
        return BidiFlow.fromGraph(new HeaderDeadline(headerTimeout, idleTimeout)).join(handler);
    }

    @Override
    public BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape() {
        return shape;
    }

    @Override
    public GraphStageLogic createLogic(Attributes inheritedAttributes) {
        return new TimerGraphStageLogic(shape) {
            /** Requests handed to the handler whose responses have not been sent in full. */
            private int open;

            private AsyncCallback<Done> responseSent;

            {
                setHandler(
                        requestsIn,
                        new AbstractInHandler() {
                            @Override
                            public void onPush() {
                                cancelTimer(DEADLINE);
                                open++;
                                push(requestsOut, grab(requestsIn));
                            }

                            @Override
                            public void onUpstreamFinish() {
                                // No more requests (the client is done, or its body broke the
                                // framing): the
                                // responses still owed go out before the stage completes.
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
                scheduleOnce(DEADLINE, headerTimeout.multipliedBy(2));
            }

            /**
             * The same entity, calling {@link #sent} once its last byte has gone out (or it
             * failed).
             */
            private ResponseEntity watched(ResponseEntity entity) {
                Source<ByteString, ?> data =
                        entity.getDataBytes()
                                .watchTermination(
                                        (mat, done) -> {
                                            done.whenComplete(
                                                    (d, failure) ->
                                                            responseSent.invoke(
                                                                    Done.getInstance()));
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
                    scheduleOnce(DEADLINE, idleTimeout.plus(headerTimeout));
                }
            }

            @Override
            public void onTimer(Object key) {
                log.debug("closing a connection that sent no complete request head in time");
                completeStage();
            }
        };
    }

    private static final String DEADLINE = "deadline";
}
