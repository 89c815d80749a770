package io.kubepekko.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection: the request goes out byte for byte as
 * given (unnormalised paths, malformed request lines and headers, any body), which no HTTP client
 * library allows. The answer is read up to its end, or only up to its headers for a stream the caller
 * does not want to wait for.
 */
final class RawHttp {
    private RawHttp() {}

    /** What came back; {@code code} is -1 when the server closed the connection without answering. */
    record Answer(int code, Map<String, String> headers, byte[] body) {
        static final Answer NONE = new Answer(-1, Map.of(), new byte[0]);

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * Sends {@code head} (request line and headers, each line ending in CRLF, without the blank line)
     * then a blank line and {@code body}, and reads the answer.
     *
     * @param headersOnly stop after the response headers (a watch that would go on streaming)
     */
    static Answer exchange(int port, String head, byte[] body, boolean headersOnly, int readTimeoutMillis)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(readTimeoutMillis);
            OutputStream out = socket.getOutputStream();
            try {
                out.write((head + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                if (body != null && body.length > 0) {
                    out.write(body);
                }
                out.flush();
            } catch (IOException e) {
                // The server may answer (413, 400) and close before the whole body is sent: read what it said.
            }
            return read(socket.getInputStream(), headersOnly);
        }
    }

    private static Answer read(InputStream in, boolean headersOnly) throws IOException {
        byte[] headBytes;
        try {
            headBytes = readHead(in);
        } catch (SocketTimeoutException e) {
            throw new IOException("no response headers within the read timeout", e);
        }
        if (headBytes == null) {
            return Answer.NONE;
        }
        String[] lines = new String(headBytes, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] status = lines[0].split(" ", 3);
        int code = Integer.parseInt(status[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        if (headersOnly) {
            return new Answer(code, headers, new byte[0]);
        }
        String length = headers.get("content-length");
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(in);
        } else if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else {
            body = in.readAllBytes();
        }
        return new Answer(code, headers, body);
    }

    /** The bytes before the blank line ending the headers; null when the stream ends before any byte. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            last4 = (last4 << 8) | b;
            if (last4 == 0x0d0a0d0a) {
                byte[] all = head.toByteArray();
                return java.util.Arrays.copyOf(all, all.length - 4);
            }
            if (head.size() > 1 << 20) {
                throw new IOException("response headers over 1 MiB");
            }
        }
        if (head.size() == 0) {
            return null;
        }
        throw new IOException("the connection ended inside the response headers: " + head);
    }

    private static byte[] dechunk(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailers
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        if (b == -1 && line.size() == 0) {
            throw new IOException("the connection ended inside a chunked body");
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
