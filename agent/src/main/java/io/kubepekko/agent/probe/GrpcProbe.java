package io.kubepekko.agent.probe;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.kubepekko.agent.probe.health.v1.HealthCheckRequest;
import io.kubepekko.agent.probe.health.v1.HealthCheckResponse;
import io.kubepekko.agent.probe.health.v1.HealthGrpc;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A {@code grpc} probe as the kubelet's (pkg/probe/grpc): {@code grpc.health.v1.Health/Check} for
 * the probe's {@code service} at the pod IP and {@code port}, plaintext, within the timeout. {@code
 * SERVING} passes; any other status, a server without the health service, a failed connection or
 * the timeout fails, in the kubelet's words. One channel per probe, closed after it (the kubelet
 * dials per probe too).
 */
public final class GrpcProbe {
    private GrpcProbe() {}

    public static CompletionStage<ProbeOutcome> run(
            String host, int port, String service, Duration timeout) {
        String address = ProbeAddresses.hostPort(host, port);
        ManagedChannel channel =
                NettyChannelBuilder.forAddress(host, port)
                        .usePlaintext()
                        .userAgent(HttpProbe.USER_AGENT)
                        .build();
        CompletableFuture<ProbeOutcome> done = new CompletableFuture<>();
        HealthGrpc.newStub(channel)
                .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .check(
                        HealthCheckRequest.newBuilder().setService(service).build(),
                        new StreamObserver<>() {
                            @Override
                            public void onNext(HealthCheckResponse response) {
                                done.complete(
                                        response.getStatus()
                                                        == HealthCheckResponse.ServingStatus.SERVING
                                                ? ProbeOutcome.success("service healthy")
                                                : ProbeOutcome.failure(
                                                        "service unhealthy (responded with \""
                                                                + response.getStatus()
                                                                + "\")"));
                            }

                            @Override
                            public void onError(Throwable t) {
                                done.complete(failure(Status.fromThrowable(t), address, timeout));
                            }

                            @Override
                            public void onCompleted() {
                                done.complete(
                                        ProbeOutcome.failure(
                                                "error: health rpc probe failed: no response"));
                            }
                        });
        return done.whenComplete((o, t) -> channel.shutdownNow());
    }

    static ProbeOutcome failure(Status status, String address, Duration timeout) {
        String message = status.getDescription() == null ? "" : status.getDescription();
        return switch (status.getCode()) {
            case UNIMPLEMENTED ->
                    ProbeOutcome.failure(
                            "error: this server does not implement the grpc health protocol"
                                    + " (grpc.health.v1.Health): "
                                    + message);
            case DEADLINE_EXCEEDED ->
                    ProbeOutcome.failure(
                            "timeout: health rpc did not complete within "
                                    + timeout.toSeconds()
                                    + "s");
            case UNAVAILABLE ->
                    ProbeOutcome.failure(
                            "error: failed to connect service at \""
                                    + address
                                    + "\": "
                                    + new StatusRuntimeException(status).getMessage());
            default ->
                    ProbeOutcome.failure(
                            "error: health rpc probe failed: "
                                    + new StatusRuntimeException(status).getMessage());
        };
    }
}
