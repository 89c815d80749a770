package io.kubepekko.agent.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.manifest.BoundedBytes;
import io.kubepekko.agent.manifest.PostedPodSource;
import io.kubepekko.api.meta.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's server over a raw socket when a request cannot be completed in time: a body that
 * stalls, a source that does not answer. Each is answered with a JSON {@code Status} (504, reason
 * Timeout, as kube-apiserver answers a request past its timeout), never with Pekko's plain-text 503
 * or 500. The timeouts are short here and Pekko's own request timeout far longer, so only this
 * server's answer can arrive before the socket's deadline.
 */
class AgentServerIT {

    /**
     * How long the test waits for an answer: well inside Pekko's request timeout (the slower
     * timeout + 5 s).
     */
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private static final Duration SHORT = Duration.ofMillis(500);
    private static final Duration LONG = Duration.ofSeconds(60);

    private ActorTestKit kit;

    /** A source that never answers. */
    private TestProbe<PostedPodSource.Command> source;

    @BeforeEach
    void start() {
        kit = ActorTestKit.create();
        source = kit.createTestProbe();
    }

    @AfterEach
    void stop() {
        kit.shutdownTestKit();
    }

    private int bind(AgentServer.Timeouts timeouts) throws Exception {
        return AgentServer.bind(
                        kit.system(),
                        "127.0.0.1",
                        0,
                        source.ref(),
                        AgentServer.LOOPBACK_WRITERS,
                        BoundedBytes.MAX_MANIFEST_BYTES,
                        timeouts)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS)
                .localAddress()
                .getPort();
    }

    @Test
    void aBodyThatStallsHalfWayIsAnsweredWithATimeoutStatus() throws Exception {
        int port = bind(new AgentServer.Timeouts(SHORT, LONG));
        String body = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n";
        try (Socket socket = open(port)) {
            send(
                    socket,
                    "PUT /static-pods/web HTTP/1.1\r\nHost: t\r\nContent-Type: application/yaml\r\nContent-Length: "
                            + body.length()
                            + "\r\n\r\n"
                            + body.substring(0, body.length() / 2));
            Answer answer = Answer.read(socket.getInputStream());
            assertTimeoutStatus(answer);
        }
        source.expectNoMessage(Duration.ZERO);
    }

    @Test
    void aSourceThatDoesNotAnswerIsATimeoutStatus() throws Exception {
        int port = bind(new AgentServer.Timeouts(LONG, SHORT));
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"}}";
        try (Socket socket = open(port)) {
            send(
                    socket,
                    "PUT /static-pods/web HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length()
                            + "\r\n\r\n"
                            + body);
            assertTimeoutStatus(Answer.read(socket.getInputStream()));
            assertTrue(source.expectMessageClass(PostedPodSource.Put.class).name().equals("web"));
            // The same connection serves the next requests, each also asking the silent source.
            send(socket, "DELETE /static-pods/web HTTP/1.1\r\nHost: t\r\n\r\n");
            assertTimeoutStatus(Answer.read(socket.getInputStream()));
            send(socket, "GET /static-pods HTTP/1.1\r\nHost: t\r\n\r\n");
            assertTimeoutStatus(Answer.read(socket.getInputStream()));
        }
    }

    @Test
    void aBodyDeclaredOverTheLimitIsRefusedOnItsHeadersWithoutReadingIt() throws Exception {
        int port = bind(new AgentServer.Timeouts(LONG, LONG));
        // Only the head is sent: the answer must come from the declared length alone (a client
        // uploading the 10 MiB
        // would race the early answer, which is why this is not sent through an HTTP client).
        try (Socket socket = open(port)) {
            send(
                    socket,
                    "PUT /static-pods/web HTTP/1.1\r\nHost: t\r\nContent-Type: application/yaml\r\nContent-Length: "
                            + (BoundedBytes.MAX_MANIFEST_BYTES + 1)
                            + "\r\n\r\n");
            Answer answer = Answer.read(socket.getInputStream());
            assertEquals(413, answer.code(), answer.toString());
            assertEquals("application/json", answer.contentType(), answer.toString());
            JsonNode status = Json.MAPPER.readTree(answer.body());
            assertEquals("Status", status.path("kind").asText(), answer.toString());
            assertEquals(
                    "RequestEntityTooLarge", status.path("reason").asText(), answer.toString());
            assertEquals(413, status.path("code").asInt(), answer.toString());
            assertEquals(
                    "Request entity too large: limit is 10485760", status.path("message").asText());
        }
        source.expectNoMessage(Duration.ZERO);
    }

    private static Socket open(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        // The deadline for an answer, not a pause: a read returns as soon as the server writes.
        socket.setSoTimeout((int) DEADLINE.toMillis());
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void assertTimeoutStatus(Answer answer) throws Exception {
        assertEquals(504, answer.code(), answer.toString());
        assertEquals("application/json", answer.contentType(), answer.toString());
        JsonNode status = Json.MAPPER.readTree(answer.body());
        assertEquals("Status", status.path("kind").asText(), answer.toString());
        assertEquals("v1", status.path("apiVersion").asText(), answer.toString());
        assertEquals("Failure", status.path("status").asText(), answer.toString());
        assertEquals("Timeout", status.path("reason").asText(), answer.toString());
        assertEquals(504, status.path("code").asInt(), answer.toString());
        assertEquals(
                "Timeout: request did not complete within the allowed duration",
                status.path("message").asText());
    }

    /** One HTTP/1.1 response with a Content-Length, read off the socket. */
    private record Answer(int code, String contentType, String body) {
        static Answer read(InputStream in) throws IOException {
            String statusLine = line(in);
            int code = Integer.parseInt(statusLine.split(" ")[1]);
            int length = 0;
            String type = "";
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                if (name.equals("content-length")) {
                    length = Integer.parseInt(value);
                } else if (name.equals("content-type")) {
                    type = value;
                }
            }
            byte[] body = in.readNBytes(length);
            return new Answer(code, type, new String(body, StandardCharsets.UTF_8));
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("the connection closed mid-answer: " + b);
                }
                b.write(c);
            }
            String s = b.toString(StandardCharsets.UTF_8);
            return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }
    }
}
