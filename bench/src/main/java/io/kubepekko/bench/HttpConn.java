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

/**
 * One HTTP/1.1 keep-alive connection, used by one worker at a time.
 *
 * <p>Hand-written rather than {@link java.net.http.HttpClient}. The JDK client does reuse its
 * HTTP/1.1 connections (50 threads kept 50 sockets open), but it funnels every exchange through
 * one selector thread and a chain of futures: on this two-core machine it reached about a third
 * of this client's throughput against the same etcd, so it would have measured itself rather
 * than the stores. A blocking socket per worker keeps the client's CPU share small and makes
 * "one connection per worker" literal.
 */
final class HttpConn implements Closeable {

  /** A response: status code and the whole body (bodies here are a few KiB at most). */
  record Response(int status, byte[] body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 60_000;

  private final String host;
  private final int port;
  private final byte[] hostHeader;
  private Socket socket;
  private InputStream in;
  private OutputStream out;
  /** Requests sent on the current socket; a failure on the first one is not a stale keep-alive. */
  private int sentOnSocket;

  HttpConn(URI base) {
    this.host = base.getHost();
    this.port = base.getPort() > 0 ? base.getPort() : 80;
    this.hostHeader = ("Host: " + host + ":" + port + "\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** Opens the socket now, so that connecting is not timed as part of the first request. */
  void connect() throws IOException {
    if (socket != null) {
      return;
    }
    Socket s = new Socket();
    s.setTcpNoDelay(true);
    s.setKeepAlive(true);
    s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
    s.setSoTimeout(READ_TIMEOUT_MS);
    socket = s;
    in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
    out = new BufferedOutputStream(s.getOutputStream(), 16 * 1024);
    sentOnSocket = 0;
  }

  /**
   * Sends one request and reads the whole response. A request that fails on a reused socket is
   * retried once on a fresh one, because the server may have closed an idle keep-alive connection.
   */
  Response send(String method, String path, byte[] body) throws IOException {
    connect();
    boolean reused = sentOnSocket > 0;
    try {
      return exchange(method, path, body);
    } catch (IOException e) {
      close();
      if (!reused) {
        throw e;
      }
      connect();
      return exchange(method, path, body);
    }
  }

  Response get(String path) throws IOException {
    return send("GET", path, null);
  }

  private Response exchange(String method, String path, byte[] body) throws IOException {
    sentOnSocket++;
    StringBuilder head = new StringBuilder(128)
        .append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
    out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
    out.write(hostHeader);
    if (body != null) {
      out.write(("Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n")
          .getBytes(StandardCharsets.US_ASCII));
    }
    out.write("Accept: application/json\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    if (body != null) {
      out.write(body);
    }
    out.flush();
    return readResponse(method);
  }

  private Response readResponse(String method) throws IOException {
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
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close = value.equalsIgnoreCase("close");
        default -> { }
      }
    }
    byte[] body;
    if (method.equals("HEAD") || status == 204 || status == 304 || status / 100 == 1) {
      body = new byte[0];
    } else if (chunked) {
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
    while (true) {
      String sizeLine = readLine();
      int semicolon = sizeLine.indexOf(';');
      int size = Integer.parseInt(
          (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
      if (size == 0) {
        while (!readLine().isEmpty()) {
          // trailers carry nothing we need
        }
        return body.toByteArray();
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length != size) {
        throw new EOFException("connection closed mid-chunk");
      }
      body.write(chunk);
      readLine();
    }
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
    in = null;
    out = null;
  }
}
