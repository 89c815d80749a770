package io.kubepekko.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 keep-alive connection, used by one worker at a time.
 *
 * <p>Hand-written rather than {@link java.net.http.HttpClient}. The JDK client does reuse its
 * HTTP/1.1 connections (50 threads kept 50 sockets open), but it funnels every exchange through one
 * selector thread and a chain of futures: on this two-core machine it reached about a third of this
 * client's throughput against the same etcd, so it would have measured itself rather than the
 * stores. A blocking socket per worker keeps the client's CPU share small and makes "one connection
 * per worker" literal.
 *
 * <p>Against an {@code https} {@link Endpoint} the socket is an {@link SSLSocket} (the server CA as
 * the only trust, the host name checked as HTTPS clients do, the client certificate presented): the
 * handshake happens once, in {@link #connect()}, and every request after it reuses the session, as
 * kube's clients keep their connections.
 */
final class HttpConn implements Closeable {

    /**
     * Receives a response body piece by piece as it arrives: a list of 100,000 objects need never
     * be held whole, and a watch stream can be read event by event while it stays open.
     */
    interface BodySink {
        /** Called once, when the status line and headers have been read. */
        default void status(int status) throws IOException {}

        /**
         * The next bytes of the body, de-chunked; {@code buffer} is reused after the call returns.
         */
        void accept(byte[] buffer, int offset, int length) throws IOException;
    }

    /** A response: status code and the whole body (bodies here are a few KiB at most). */
    record Response(int status, byte[] body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final String JSON = "application/json";
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int READ_TIMEOUT_MS = 60_000;
    private static final int STREAM_BUFFER = 64 * 1024;

    private final String host;
    private final int port;
    private final SSLSocketFactory tls;
    private final byte[] hostHeader;
    private int readTimeoutMillis = READ_TIMEOUT_MS;
    private byte[] acceptHeader =
            "Accept: application/json\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** Volatile so that {@link #abort()} from another thread sees the socket a reader opened. */
    private volatile Socket socket;

    /**
     * The TCP socket under {@link #socket} (the same one without TLS): {@link #abort()} closes this
     * one, since closing an SSLSocket would first try to send close_notify while a reader holds it.
     */
    private volatile Socket tcp;

    private InputStream in;
    private OutputStream out;

    /**
     * Requests sent on the current socket; a failure on the first one is not a stale keep-alive.
     */
    private int sentOnSocket;

    /** A plain HTTP connection (etcd). */
    HttpConn(URI base) {
        this(Endpoint.plain(base));
    }

    HttpConn(Endpoint endpoint) {
        URI base = endpoint.base();
        this.host = base.getHost();
        this.tls = endpoint.secure() ? endpoint.tls().getSocketFactory() : null;
        this.port = base.getPort() > 0 ? base.getPort() : endpoint.secure() ? 443 : 80;
        this.hostHeader =
                ("Host: " + host + ":" + port + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * How long a read may block; 0 waits forever. Watches that may stay quiet for longer than the
     * default use this; applies to the next socket opened.
     */
    void readTimeout(int millis) {
        this.readTimeoutMillis = millis;
    }

    /** The Accept header of later requests (default {@code application/json}). */
    void accept(String mediaTypes) {
        this.acceptHeader =
                ("Accept: " + mediaTypes + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Opens the socket now, and over TLS completes the handshake, so that neither is timed as part
     * of the first request.
     */
    void connect() throws IOException {
        if (socket != null) {
            return;
        }
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setKeepAlive(true);
        s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
        s.setSoTimeout(readTimeoutMillis);
        tcp = s;
        if (tls != null) {
            try {
                s = handshake(s);
            } catch (IOException e) {
                tcp = null;
                s.close();
                throw e;
            }
        }
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        out = new BufferedOutputStream(s.getOutputStream(), 16 * 1024);
        sentOnSocket = 0;
    }

    /** TLS over a connected socket, HTTP/1.1 by ALPN, the server's name checked. */
    private SSLSocket handshake(Socket connected) throws IOException {
        SSLSocket ssl = (SSLSocket) tls.createSocket(connected, host, port, true);
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        ssl.setSSLParameters(parameters);
        ssl.startHandshake();
        return ssl;
    }

    /** Sends one request with a JSON body (or none) and reads the whole response; see below. */
    Response send(String method, String path, byte[] body) throws IOException {
        return send(method, path, JSON, body);
    }

    /**
     * Sends one request with a body of the given media type (a PATCH says its patch type this way)
     * and reads the whole response. A request that fails on a reused socket is retried once on a
     * fresh one, because the server may have closed an idle keep-alive connection.
     */
    Response send(String method, String path, String contentType, byte[] body) throws IOException {
        connect();
        boolean reused = sentOnSocket > 0;
        try {
            return exchange(method, path, contentType, body);
        } catch (IOException e) {
            close();
            if (!reused) {
                throw e;
            }
            connect();
            return exchange(method, path, contentType, body);
        }
    }

    Response get(String path) throws IOException {
        return send("GET", path, null);
    }

    /**
     * Sends one request and hands the body to {@code sink} as it arrives, returning the status once
     * the body has ended. As with {@link #send}, a stale keep-alive socket is retried once, but
     * only while nothing has reached the sink yet.
     */
    int stream(String method, String path, byte[] body, BodySink sink) throws IOException {
        connect();
        boolean reused = sentOnSocket > 0;
        Head head;
        try {
            writeRequest(method, path, JSON, body);
            head = readHead();
        } catch (IOException e) {
            close();
            if (!reused) {
                throw e;
            }
            connect();
            writeRequest(method, path, JSON, body);
            head = readHead();
        }
        sink.status(head.status());
        byte[] buffer = new byte[STREAM_BUFFER];
        boolean close = head.close();
        if (!hasBody(method, head.status())) {
            // nothing follows the headers
        } else if (head.chunked()) {
            for (int size = readChunkSize(); size > 0; size = readChunkSize()) {
                pipe(size, buffer, sink);
                readLine();
            }
            while (!readLine().isEmpty()) {
                // trailers carry nothing we need
            }
        } else if (head.length() >= 0) {
            pipe(head.length(), buffer, sink);
        } else {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                sink.accept(buffer, 0, n);
            }
            close = true;
        }
        if (close) {
            close();
        }
        return head.status();
    }

    /**
     * Closes the socket from another thread, which makes a reader blocked in {@link #stream} fail
     * with an IOException: the way to end a watch that the server would keep open.
     */
    void abort() {
        Socket s = tcp;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // abandoning it anyway
            }
        }
    }

    /** Copies {@code length} body bytes to the sink, each read as soon as it arrives. */
    private void pipe(long length, byte[] buffer, BodySink sink) throws IOException {
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new EOFException("connection closed mid-body");
            }
            sink.accept(buffer, 0, n);
            left -= n;
        }
    }

    private Response exchange(String method, String path, String contentType, byte[] body)
            throws IOException {
        writeRequest(method, path, contentType, body);
        return readResponse(method);
    }

    private void writeRequest(String method, String path, String contentType, byte[] body)
            throws IOException {
        sentOnSocket++;
        StringBuilder head =
                new StringBuilder(128)
                        .append(method)
                        .append(' ')
                        .append(path)
                        .append(" HTTP/1.1\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(hostHeader);
        if (body != null) {
            out.write(
                    ("Content-Type: " + contentType + "\r\nContent-Length: " + body.length + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
        }
        out.write(acceptHeader);
        if (body != null) {
            out.write(body);
        }
        out.flush();
    }

    /** The status line and the headers that decide how the body is framed. */
    private record Head(int status, long length, boolean chunked, boolean close) {}

    private Head readHead() throws IOException {
        String statusLine = readLine();
        // "HTTP/1.1 200 OK": the code is the second token.
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = statusLine.startsWith("HTTP/1.0");
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" ->
                        chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> {}
            }
        }
        return new Head(status, length, chunked, close);
    }

    private static boolean hasBody(String method, int status) {
        return !(method.equals("HEAD") || status == 204 || status == 304 || status / 100 == 1);
    }

    private Response readResponse(String method) throws IOException {
        Head head = readHead();
        int status = head.status();
        long length = head.length();
        boolean close = head.close();
        byte[] body;
        if (!hasBody(method, status)) {
            body = new byte[0];
        } else if (head.chunked()) {
            body = readChunked();
        } else if (length >= 0) {
            body = in.readNBytes((int) length);
            if (body.length != length) {
                throw new EOFException("connection closed mid-body");
            }
        } else {
            body = in.readAllBytes();
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(status, body);
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
        for (int size = readChunkSize(); size > 0; size = readChunkSize()) {
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new EOFException("connection closed mid-chunk");
            }
            body.write(chunk);
            readLine();
        }
        while (!readLine().isEmpty()) {
            // trailers carry nothing we need
        }
        return body.toByteArray();
    }

    /** A chunk's size line, without any chunk extension; 0 is the last chunk. */
    private int readChunkSize() throws IOException {
        String sizeLine = readLine();
        int semicolon = sizeLine.indexOf(';');
        return Integer.parseInt(
                (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
    }

    /** Reads one CRLF-terminated line of ASCII header text, without the terminator. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed by server");
            }
            if (b == '\n') {
                int end = line.length();
                if (end > 0 && line.charAt(end - 1) == '\r') {
                    line.setLength(end - 1);
                }
                return line.toString();
            }
            line.append((char) b);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a socket we are abandoning anyway
            }
        }
        socket = null;
        tcp = null;
        in = null;
        out = null;
    }
}
