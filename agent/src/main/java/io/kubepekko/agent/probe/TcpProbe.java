package io.kubepekko.agent.probe;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code tcpSocket} probe as the kubelet's (pkg/probe/tcp {@code DoTCPProbe}): it passes when a
 * TCP connection opens within the timeout (and closes it at once), else fails with Go's words for
 * the dial error. Asynchronous: no thread waits on the connect.
 */
public final class TcpProbe {
    private TcpProbe() {}

    public static CompletionStage<ProbeOutcome> run(String host, int port, Duration timeout) {
        String address = ProbeAddresses.hostPort(host, port);
        CompletableFuture<ProbeOutcome> done = new CompletableFuture<>();
        AsynchronousSocketChannel channel;
        try {
            channel = AsynchronousSocketChannel.open();
        } catch (IOException e) {
            return CompletableFuture.completedFuture(ProbeOutcome.error("tcp probe: " + e));
        }
        channel.connect(
                new InetSocketAddress(host, port),
                null,
                new CompletionHandler<Void, Void>() {
                    @Override
                    public void completed(Void v, Void a) {
                        done.complete(ProbeOutcome.success(""));
                    }

                    @Override
                    public void failed(Throwable t, Void a) {
                        done.complete(
                                ProbeOutcome.failure("dial tcp " + address + ": " + dialError(t)));
                    }
                });
        return done.completeOnTimeout(
                        ProbeOutcome.failure("dial tcp " + address + ": i/o timeout"),
                        timeout.toMillis(),
                        TimeUnit.MILLISECONDS)
                .whenComplete((o, t) -> close(channel));
    }

    static String dialError(Throwable t) {
        if (t instanceof ConnectException) {
            return "connect: connection refused";
        }
        if (t instanceof TimeoutException) {
            return "i/o timeout";
        }
        return "connect: "
                + (t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
    }

    private static void close(AsynchronousSocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a probe's connection has nothing to report
        }
    }
}
