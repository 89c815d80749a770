package io.kubepekko.e2e.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy gives each new connection to the next backend and relays bytes both ways, half-close
 * included.
 */
class RoundRobinProxyTest {
    private final List<ServerSocket> backends = new ArrayList<>();

    @AfterEach
    void closeBackends() throws IOException {
        for (ServerSocket s : backends) {
            s.close();
        }
    }

    /**
     * A backend that answers every connection with its name followed by what the client sent, then
     * closes.
     */
    private InetSocketAddress backend(String name) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        backends.add(listener);
        Thread t =
                new Thread(
                        () -> {
                            while (!listener.isClosed()) {
                                try (Socket s = listener.accept()) {
                                    byte[] request =
                                            s.getInputStream().readAllBytes(); // until the client's
                                    // half-close
                                    OutputStream out = s.getOutputStream();
                                    out.write((name + ":").getBytes(StandardCharsets.UTF_8));
                                    out.write(request);
                                } catch (IOException e) {
                                    return;
                                }
                            }
                        },
                        "backend-" + name);
        t.setDaemon(true);
        t.start();
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    }

    private static String exchange(String proxyUrl, String request) throws IOException {
        URI uri = URI.create(proxyUrl);
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void eachConnectionGoesToTheNextBackendInTurn() throws IOException {
        try (RoundRobinProxy proxy =
                RoundRobinProxy.start(List.of(backend("a"), backend("b"), backend("c")))) {
            List<String> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(exchange(proxy.url(), "r" + i));
            }
            assertEquals(List.of("a:r0", "b:r1", "c:r2", "a:r3", "b:r4", "c:r5"), answers);
            assertEquals(2, proxy.connectionsTo(1));
        }
    }
}
