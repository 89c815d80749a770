package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.net.ssl.SSLSocket;

/**
 * One TCP (TLS) connection to the server, for requests no HTTP client library would send: malformed
 * request lines, oversized heads, heads that never end. Reads responses as HTTP/1.1 frames them
 * (Content-Length, chunked, or until the server closes).
 */
final class RawHttp implements AutoCloseable {
    private final Socket socket;
    // The TCP connection under the TLS one: whether the server closed it, not only its TLS session.
    private final Socket tcp;
    private final InputStream in;
    private final OutputStream out;

    private RawHttp(Socket socket, Socket tcp) throws IOException {
        this.socket = socket;
        this.tcp = tcp;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * A connection to the server at {@code url} ({@code https://host:port}, as the {@link TestPki}
     * admin, the handshake done; {@code http://host:port} plain).
     */
    static RawHttp open(String url) {
        URI u = URI.create(url);
        try {
            Socket tcp = new Socket(u.getHost(), u.getPort());
            tcp.setTcpNoDelay(true);
            tcp.setSoTimeout(60_000);
            Socket s = tcp;
            if ("https".equals(u.getScheme())) {
                SSLSocket tls =
                        (SSLSocket)
                                TestPki.admin()
                                        .getSocketFactory()
                                        .createSocket(tcp, u.getHost(), u.getPort(), true);
                tls.setSoTimeout(60_000);
                tls.startHandshake();
                s = tls;
            }
            return new RawHttp(s, tcp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One request on a connection of its own ({@code Connection: close}), its target sent byte for
     * byte as given (as {@code curl --path-as-is} does), and its whole answer.
     *
     * @param body sent with a Content-Length when not null
     */
    static Response send(
            String baseUrl,
            String method,
            String target,
            Map<String, String> headers,
            String body) {
        try (RawHttp connection = open(baseUrl)) {
            return connection.exchange(baseUrl, method, target, headers, body, true);
        }
    }

    /**
     * Sends one request on this connection, its target byte for byte as given, and reads its whole
     * answer.
     *
     * @param close whether the request asks the server to close the connection afterwards
     */
    private Response exchange(
            String baseUrl,
            String method,
            String target,
            Map<String, String> headers,
            String body,
            boolean close) {
        URI base = URI.create(baseUrl);
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head =
                new StringBuilder(method)
                        .append(' ')
                        .append(target)
                        .append(" HTTP/1.1\r\n")
                        .append("Host: ")
                        .append(base.getHost())
                        .append(':')
                        .append(base.getPort())
                        .append("\r\n");
        if (close) {
            head.append("Connection: close\r\n");
        }
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(payload.length).append("\r\n");
        }
        send(head.append("\r\n").toString()).send(payload);
        return response();
    }

    /**
     * Requests one after another as {@link #send} sends them, on one kept-alive connection while
     * the server keeps it (a new one after an answer with {@code Connection: close}): for walks of
     * thousands of requests, where a TLS handshake each would take most of the time.
     */
    static final class Session implements AutoCloseable {
        private final String baseUrl;
        private RawHttp connection;

        Session(String baseUrl) {
            this.baseUrl = baseUrl;
        }

        Response send(String method, String target, Map<String, String> headers, String body) {
            if (connection == null) {
                connection = open(baseUrl);
            }
            Response r = connection.exchange(baseUrl, method, target, headers, body, false);
            if (r.header("Connection").filter("close"::equalsIgnoreCase).isPresent()) {
                close();
            }
            return r;
        }

        @Override
        public void close() {
            if (connection != null) {
                connection.close();
                connection = null;
            }
        }
    }

    /** The headers of a JSON body. */
    static Map<String, String> json() {
        return Map.of("Content-Type", "application/json");
    }

    RawHttp send(String text) {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A GET of {@code target} with a Host header and nothing else. */
    RawHttp get(String target) {
        return send("GET " + target + " HTTP/1.1\r\nHost: test\r\n\r\n");
    }

    /** The next response on this connection, its body read completely. */
    Response response() {
        Response r = answer(false);
        if (r == null) {
            fail("the server closed the connection without answering");
        }
        return r;
    }

    /**
     * The next response, or null when the server closed the connection without answering.
     *
     * @param streamWhenOk a 200's status and headers only, its body left empty (a watch, whose body
     *     goes on)
     */
    Response answer(boolean streamWhenOk) {
        try {
            String head = readHead();
            if (head == null) {
                return null;
            }
            String[] lines = head.split("\r\n");
            String[] statusLine = lines[0].split(" ", 3);
            int code = Integer.parseInt(statusLine[1]);
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            byte[] body;
            String length = first(headers, "Content-Length");
            if (streamWhenOk && code == 200) {
                body = new byte[0];
            } else if (length != null) {
                body = in.readNBytes(Integer.parseInt(length));
            } else if ("chunked".equalsIgnoreCase(first(headers, "Transfer-Encoding"))) {
                body = readChunks();
            } else if (code == 101 || code == 204 || code == 304) {
                body = new byte[0];
            } else {
                body = in.readAllBytes();
            }
            return new Response(code, HttpHeaders.of(headers, (a, b) -> true), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits up to {@code deadline} for the server to close the connection, failing if it does not
     * or if it answers anything first. Over TLS the TCP connection must close too: a server that
     * only ends the TLS session ({@code close_notify}) still holds the socket, and a client sending
     * on it waits for an answer that never comes.
     */
    void awaitClosedWithin(Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        try {
            socket.setSoTimeout(remainingMillis(end));
            int b = in.read();
            if (b != -1) {
                fail(
                        "expected the server to close the connection, but it sent: "
                                + (char) b
                                + new String(
                                        in.readNBytes(Math.min(200, in.available())),
                                        StandardCharsets.ISO_8859_1));
            }
            if (tcp != socket) {
                tcp.setSoTimeout(remainingMillis(end));
                if (tcp.getInputStream().read() != -1) {
                    fail("the server sent bytes after closing its TLS session");
                }
            }
        } catch (SocketTimeoutException e) {
            fail("the server kept the connection open for more than " + deadline);
        } catch (SocketException reset) {
            // closed with a reset: closed all the same
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int remainingMillis(long endNanos) {
        return Math.toIntExact(Math.max(1, (endNanos - System.nanoTime()) / 1_000_000));
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b == -1) {
                return head.size() == 0 ? null : failTruncated(head);
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String s = head.toString(StandardCharsets.ISO_8859_1);
        return s.substring(0, s.length() - 4);
    }

    private static String failTruncated(ByteArrayOutputStream head) {
        fail(
                "the connection closed in a response head: "
                        + head.toString(StandardCharsets.ISO_8859_1));
        return null;
    }

    private byte[] readChunks() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            int semicolon = sizeLine.indexOf(';');
            int size =
                    Integer.parseInt(
                            (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(),
                            16);
            if (size == 0) {
                while (!readLine().isEmpty()) {
                    // trailers: none expected
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine();
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b == -1) {
                fail("the connection closed in a chunked body after: " + line);
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
