package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A connection's end when the server shuts down: at once when idle, after the response in flight
 * (which says {@code Connection: close}), or at the hard deadline.
 */
class HeaderDeadlineTest {

    private static final Duration LONG = Duration.ofMinutes(5);
    private static ActorSystem<Void> system;

    @BeforeAll
    static void start() {
        system = ActorSystem.create(Behaviors.empty(), "header-deadline");
    }

    @AfterAll
    static void stop() {
        system.terminate();
    }

    /**
     * A connection: requests offered to it, its handler, which has got one when {@code handling}
     * completes, and the responses it sent until it ended.
     */
    private record Served(
            BoundedSourceQueue<HttpRequest> requests,
            CompletableFuture<Done> handling,
            HeaderDeadline.Connection connection,
            CompletionStage<List<HttpResponse>> responses) {

        /** Sends a request and waits until the handler has it. */
        void request() throws Exception {
            requests.offer(HttpRequest.create("/api"));
            handling.get(10, TimeUnit.SECONDS);
        }
    }

    /** A connection whose handler answers each request with {@code answer}. */
    private static Served serve(CompletionStage<HttpResponse> answer) {
        CompletableFuture<Done> handling = new CompletableFuture<>();
        Flow<HttpRequest, HttpResponse, HeaderDeadline.Connection> flow =
                HeaderDeadline.around(
                        Flow.<HttpRequest>create()
                                .mapAsync(
                                        1,
                                        r -> {
                                            handling.complete(Done.getInstance());
                                            return answer;
                                        }),
                        LONG,
                        LONG,
                        CompletableFuture.completedFuture(Done.getInstance()));
        Pair<
                        Pair<BoundedSourceQueue<HttpRequest>, HeaderDeadline.Connection>,
                        CompletionStage<List<HttpResponse>>>
                m =
                        Source.<HttpRequest>queue(4)
                                .viaMat(flow, Keep.both())
                                .toMat(Sink.seq(), Keep.both())
                                .run(system);
        return new Served(m.first().first(), handling, m.first().second(), m.second());
    }

    @Test
    void drainingClosesAnIdleConnectionAtOnce() throws Exception {
        Served s = serve(new CompletableFuture<>());
        s.connection().drain(LONG).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(List.of(), s.responses().toCompletableFuture().get(10, TimeUnit.SECONDS));
    }

    @Test
    void drainingClosesAServingConnectionAfterItsResponseWhichSaysSo() throws Exception {
        CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
        Served s = serve(answer);
        s.request();
        CompletionStage<Done> stopped = s.connection().drain(LONG);
        answer.complete(
                HttpResponse.create().addHeader(HttpHeader.parse("Connection", "keep-alive")));

        List<HttpResponse> sent = s.responses().toCompletableFuture().get(10, TimeUnit.SECONDS);
        stopped.toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(1, sent.size());
        assertEquals(
                List.of("close"),
                StreamSupport.stream(sent.get(0).getHeaders().spliterator(), false)
                        .filter(h -> h.is("connection"))
                        .map(HttpHeader::value)
                        .toList());
    }

    @Test
    void drainingFailsAConnectionStillServingAtTheHardDeadline() throws Exception {
        Served s = serve(new CompletableFuture<>());
        s.request();
        s.connection()
                .drain(Duration.ofMillis(100))
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertThrows(
                ExecutionException.class,
                () -> s.responses().toCompletableFuture().get(10, TimeUnit.SECONDS));
    }
}
