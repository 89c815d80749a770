package io.kubepekko.agent.cri;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.StreamObserver;
import io.kubepekko.agent.cri.v1.AuthConfig;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.cri.v1.ContainerStatusRequest;
import io.kubepekko.agent.cri.v1.CreateContainerRequest;
import io.kubepekko.agent.cri.v1.ExecSyncRequest;
import io.kubepekko.agent.cri.v1.ExecSyncResponse;
import io.kubepekko.agent.cri.v1.Image;
import io.kubepekko.agent.cri.v1.ImageFsInfoRequest;
import io.kubepekko.agent.cri.v1.ImageFsInfoResponse;
import io.kubepekko.agent.cri.v1.ImageServiceGrpc;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.ImageStatusRequest;
import io.kubepekko.agent.cri.v1.ListContainersRequest;
import io.kubepekko.agent.cri.v1.ListImagesRequest;
import io.kubepekko.agent.cri.v1.ListPodSandboxRequest;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.cri.v1.PodSandboxStatusRequest;
import io.kubepekko.agent.cri.v1.PodSandboxStatusResponse;
import io.kubepekko.agent.cri.v1.PullImageRequest;
import io.kubepekko.agent.cri.v1.RemoveContainerRequest;
import io.kubepekko.agent.cri.v1.RemoveImageRequest;
import io.kubepekko.agent.cri.v1.RemovePodSandboxRequest;
import io.kubepekko.agent.cri.v1.ReopenContainerLogRequest;
import io.kubepekko.agent.cri.v1.RunPodSandboxRequest;
import io.kubepekko.agent.cri.v1.RunPodSandboxResponse;
import io.kubepekko.agent.cri.v1.RuntimeServiceGrpc;
import io.kubepekko.agent.cri.v1.StartContainerRequest;
import io.kubepekko.agent.cri.v1.StatusRequest;
import io.kubepekko.agent.cri.v1.StatusResponse;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import io.kubepekko.agent.cri.v1.StopPodSandboxRequest;
import io.kubepekko.agent.cri.v1.VersionRequest;
import io.kubepekko.agent.cri.v1.VersionResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The agent's client of a CRI v1 runtime (containerd): every call is asynchronous and bounded by a
 * deadline, and a failed call completes its stage exceptionally with a {@link CriException} whose
 * {@link CriError} names the call, a {@link CriError.Code} and the runtime's message ({@link
 * CriError#of} reads it back).
 *
 * <p>Deadlines follow the kubelet's CRI client: each call gets the request timeout (its {@code
 * --runtime-request-timeout}, 2 minutes by default); RunPodSandbox twice that; StopContainer the
 * request timeout plus the grace period; ExecSync the request timeout plus the command's timeout
 * (none when the command has none); PullImage none, as a pull takes as long as the image is large.
 *
 * <p>The channel reconnects by itself when the runtime comes back; a call that finds the runtime
 * unreachable fails at once with {@link CriError.Code#UNAVAILABLE} (no waiting for a connection)
 * and resets the reconnect back-off, so the next call (the relist every second) tries again at once
 * rather than after grpc's back-off of up to two minutes.
 *
 * <p>Thread-safe. Callbacks of the returned stages run on gRPC's executor: hand results to an actor
 * ({@code pipeToSelf}) rather than doing blocking work in them. {@link #close()} shuts the channel
 * down.
 */
public final class CriRuntime implements AutoCloseable {

    /** The kubelet's default {@code --runtime-request-timeout}. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(2);

    /** The CRI version we speak, sent in VersionRequest as the kubelet does. */
    public static final String CRI_API_VERSION = "v1";

    // As the kubelet's CRI client: a ListContainers answer on a full node can be several MiB.
    private static final int MAX_INBOUND_MESSAGE_BYTES = 16 * 1024 * 1024;

    private final CriEndpoint endpoint;
    private final Duration requestTimeout;
    private final ManagedChannel channel;
    private final EventLoopGroup group;
    private final RuntimeServiceGrpc.RuntimeServiceStub runtime;
    private final ImageServiceGrpc.ImageServiceStub images;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CriRuntime(
            CriEndpoint endpoint,
            Duration requestTimeout,
            ManagedChannel channel,
            EventLoopGroup group) {
        this.endpoint = endpoint;
        this.group = group;
        this.requestTimeout = requestTimeout;
        this.channel = channel;
        this.runtime = RuntimeServiceGrpc.newStub(channel);
        this.images = ImageServiceGrpc.newStub(channel);
    }

    /**
     * A client of the runtime at {@code endpoint}. Connecting is lazy: this never fails because the
     * runtime is down; the first call tells (see {@link #version()}).
     */
    public static CriRuntime connect(CriEndpoint endpoint, Duration requestTimeout) {
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "the runtime request timeout must be positive: " + requestTimeout);
        }
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException(
                    "unix domain sockets need netty's epoll transport (Linux)",
                    Epoll.unavailabilityCause());
        }
        // One thread is plenty for CRI traffic; the channel is ours alone, so is the group.
        EventLoopGroup group =
                new EpollEventLoopGroup(1, new DefaultThreadFactory("cri-client", true));
        ManagedChannel channel =
                NettyChannelBuilder.forAddress(
                                new DomainSocketAddress(endpoint.socket().toString()))
                        .channelType(EpollDomainSocketChannel.class)
                        .eventLoopGroup(group)
                        // grpc-java sets SO_KEEPALIVE on every connection, which a unix socket does
                        // not have: netty would warn
                        // at each (re)connect. Null removes the option.
                        .withOption(ChannelOption.SO_KEEPALIVE, null)
                        .usePlaintext()
                        // As the kubelet (and what grpc-go servers expect): not the socket path.
                        .overrideAuthority("localhost")
                        .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
                        .build();
        return new CriRuntime(endpoint, requestTimeout, channel, group);
    }

    public CriEndpoint endpoint() {
        return endpoint;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    // ---- RuntimeService ----

    /**
     * The runtime's name and version (for the Node's {@code containerRuntimeVersion}: {@code
     * name://version}).
     */
    public CompletionStage<VersionResponse> version() {
        VersionRequest request = VersionRequest.newBuilder().setVersion(CRI_API_VERSION).build();
        return call("Version", bounded(runtime, requestTimeout)::version, request);
    }

    /** Conditions RuntimeReady and NetworkReady. */
    public CompletionStage<StatusResponse> status() {
        StatusRequest request = StatusRequest.getDefaultInstance();
        return call("Status", bounded(runtime, requestTimeout)::status, request);
    }

    /** Creates and starts a sandbox; completes with its id. */
    public CompletionStage<String> runPodSandbox(PodSandboxConfig config, String runtimeHandler) {
        RunPodSandboxRequest request =
                RunPodSandboxRequest.newBuilder()
                        .setConfig(config)
                        .setRuntimeHandler(runtimeHandler)
                        .build();
        return call(
                        "RunPodSandbox",
                        bounded(runtime, requestTimeout.multipliedBy(2))::runPodSandbox,
                        request)
                .thenApply(RunPodSandboxResponse::getPodSandboxId);
    }

    public CompletionStage<Void> stopPodSandbox(String sandboxId) {
        StopPodSandboxRequest request =
                StopPodSandboxRequest.newBuilder().setPodSandboxId(sandboxId).build();
        return call("StopPodSandbox", bounded(runtime, requestTimeout)::stopPodSandbox, request)
                .thenApply(r -> null);
    }

    public CompletionStage<Void> removePodSandbox(String sandboxId) {
        RemovePodSandboxRequest request =
                RemovePodSandboxRequest.newBuilder().setPodSandboxId(sandboxId).build();
        return call("RemovePodSandbox", bounded(runtime, requestTimeout)::removePodSandbox, request)
                .thenApply(r -> null);
    }

    /**
     * The sandbox's status (state, IPs); {@link CriError.Code#NOT_FOUND} when it does not exist.
     */
    public CompletionStage<PodSandboxStatusResponse> podSandboxStatus(String sandboxId) {
        PodSandboxStatusRequest request =
                PodSandboxStatusRequest.newBuilder().setPodSandboxId(sandboxId).build();
        return call(
                "PodSandboxStatus", bounded(runtime, requestTimeout)::podSandboxStatus, request);
    }

    /**
     * Sandboxes matching every criterion set in {@code filter} (labels: each pair must match
     * exactly).
     */
    public CompletionStage<List<PodSandbox>> listPodSandbox(PodSandboxFilter filter) {
        ListPodSandboxRequest request =
                ListPodSandboxRequest.newBuilder().setFilter(filter).build();
        return call("ListPodSandbox", bounded(runtime, requestTimeout)::listPodSandbox, request)
                .thenApply(r -> r.getItemsList());
    }

    /**
     * Creates a container in a sandbox; completes with its id. It is CREATED until {@link
     * #startContainer}.
     */
    public CompletionStage<String> createContainer(
            String sandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig) {
        CreateContainerRequest request =
                CreateContainerRequest.newBuilder()
                        .setPodSandboxId(sandboxId)
                        .setConfig(config)
                        .setSandboxConfig(sandboxConfig)
                        .build();
        return call("CreateContainer", bounded(runtime, requestTimeout)::createContainer, request)
                .thenApply(r -> r.getContainerId());
    }

    /**
     * Starts a CREATED container; an exited one never starts again (create a new attempt instead).
     */
    public CompletionStage<Void> startContainer(String containerId) {
        StartContainerRequest request =
                StartContainerRequest.newBuilder().setContainerId(containerId).build();
        return call("StartContainer", bounded(runtime, requestTimeout)::startContainer, request)
                .thenApply(r -> null);
    }

    /**
     * Sends the stop signal, then SIGKILL after {@code gracePeriod} (whole seconds, as CRI counts
     * them).
     */
    public CompletionStage<Void> stopContainer(String containerId, Duration gracePeriod) {
        long seconds = Math.max(0, gracePeriod.toSeconds());
        StopContainerRequest request =
                StopContainerRequest.newBuilder()
                        .setContainerId(containerId)
                        .setTimeout(seconds)
                        .build();
        return call(
                        "StopContainer",
                        bounded(runtime, requestTimeout.plusSeconds(seconds))::stopContainer,
                        request)
                .thenApply(r -> null);
    }

    public CompletionStage<Void> removeContainer(String containerId) {
        RemoveContainerRequest request =
                RemoveContainerRequest.newBuilder().setContainerId(containerId).build();
        return call("RemoveContainer", bounded(runtime, requestTimeout)::removeContainer, request)
                .thenApply(r -> null);
    }

    /** Containers matching every criterion set in {@code filter}. */
    public CompletionStage<List<Container>> listContainers(ContainerFilter filter) {
        ListContainersRequest request =
                ListContainersRequest.newBuilder().setFilter(filter).build();
        return call("ListContainers", bounded(runtime, requestTimeout)::listContainers, request)
                .thenApply(r -> r.getContainersList());
    }

    /**
     * The container's state, times, exit code and reason; {@link CriError.Code#NOT_FOUND} when it
     * is gone.
     */
    public CompletionStage<ContainerStatus> containerStatus(String containerId) {
        ContainerStatusRequest request =
                ContainerStatusRequest.newBuilder().setContainerId(containerId).build();
        return call("ContainerStatus", bounded(runtime, requestTimeout)::containerStatus, request)
                .thenApply(r -> r.getStatus());
    }

    /**
     * Asks the runtime to reopen the container's log file at its log path (a new file once the old
     * one was renamed away by log rotation). containerd refuses it for a container that is not
     * running.
     */
    public CompletionStage<Void> reopenContainerLog(String containerId) {
        ReopenContainerLogRequest request =
                ReopenContainerLogRequest.newBuilder().setContainerId(containerId).build();
        return call(
                        "ReopenContainerLog",
                        bounded(runtime, requestTimeout)::reopenContainerLog,
                        request)
                .thenApply(r -> null);
    }

    /**
     * Runs {@code command} in a running container and completes with its exit code and output (a
     * non-zero exit code is a result, not an error). {@code timeout} is the command's (whole
     * seconds; zero for none); when it passes, the stage fails with {@link
     * CriError.Code#DEADLINE_EXCEEDED}.
     */
    public CompletionStage<ExecSyncResponse> execSync(
            String containerId, List<String> command, Duration timeout) {
        long seconds = Math.max(0, timeout.toSeconds());
        ExecSyncRequest request =
                ExecSyncRequest.newBuilder()
                        .setContainerId(containerId)
                        .addAllCmd(command)
                        .setTimeout(seconds)
                        .build();
        Duration deadline = seconds == 0 ? null : requestTimeout.plusSeconds(seconds);
        return call("ExecSync", bounded(runtime, deadline)::execSync, request);
    }

    // ---- ImageService ----

    /** Every image the runtime holds (containerd 1.6 ignores list filters, so none is offered). */
    public CompletionStage<List<Image>> listImages() {
        ListImagesRequest request = ListImagesRequest.getDefaultInstance();
        return call("ListImages", bounded(images, requestTimeout)::listImages, request)
                .thenApply(r -> r.getImagesList());
    }

    /** The image if the runtime holds it (by reference, normalised by the runtime, or by id). */
    public CompletionStage<Optional<Image>> imageStatus(String image) {
        ImageStatusRequest request =
                ImageStatusRequest.newBuilder().setImage(imageSpec(image)).build();
        return call("ImageStatus", bounded(images, requestTimeout)::imageStatus, request)
                .thenApply(r -> r.hasImage() ? Optional.of(r.getImage()) : Optional.empty());
    }

    /**
     * Pulls an image; completes with the runtime's reference to it (the image id or digest). {@code
     * auth} may be null. No deadline, as the kubelet: a large image takes long, and the runtime
     * bounds a stalled pull itself.
     */
    public CompletionStage<String> pullImage(
            String image, AuthConfig auth, PodSandboxConfig sandboxConfig) {
        PullImageRequest.Builder request = PullImageRequest.newBuilder().setImage(imageSpec(image));
        if (auth != null) {
            request.setAuth(auth);
        }
        if (sandboxConfig != null) {
            request.setSandboxConfig(sandboxConfig);
        }
        PullImageRequest built = request.build();
        return call("PullImage", bounded(images, null)::pullImage, built)
                .thenApply(r -> r.getImageRef());
    }

    public CompletionStage<Void> removeImage(String image) {
        RemoveImageRequest request =
                RemoveImageRequest.newBuilder().setImage(imageSpec(image)).build();
        return call("RemoveImage", bounded(images, requestTimeout)::removeImage, request)
                .thenApply(r -> null);
    }

    /**
     * Usage of the image filesystem (for the Node's ephemeral-storage and image garbage
     * collection).
     */
    public CompletionStage<ImageFsInfoResponse> imageFsInfo() {
        ImageFsInfoRequest request = ImageFsInfoRequest.getDefaultInstance();
        return call("ImageFsInfo", bounded(images, requestTimeout)::imageFsInfo, request);
    }

    /**
     * Shuts the channel down: calls in flight are cancelled, later calls fail with {@link
     * CriError.Code#CANCELLED}. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    }

    private static ImageSpec imageSpec(String image) {
        return ImageSpec.newBuilder().setImage(image).build();
    }

    private <S extends AbstractStub<S>> S bounded(S stub, Duration deadline) {
        return deadline == null
                ? stub
                : stub.withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** One unary call, any failure turned into a {@link CriError}. */
    private <Q, R> CompletableFuture<R> call(
            String method, BiConsumer<Q, StreamObserver<R>> rpc, Q request) {
        CompletableFuture<R> result = new CompletableFuture<>();
        if (closed.get()) {
            result.completeExceptionally(closedError(method));
            return result;
        }
        rpc.accept(
                request,
                new UnaryObserver<>(
                        result::complete,
                        failure -> {
                            CriError error = CriError.fromGrpc(method, failure);
                            if (closed.get()) {
                                result.completeExceptionally(closedError(method));
                                return;
                            }
                            if (error.is(CriError.Code.UNAVAILABLE)) {
                                channel.resetConnectBackoff();
                            }
                            result.completeExceptionally(new CriException(error));
                        }));
        return result;
    }

    private static CriException closedError(String method) {
        return new CriException(
                new CriError(CriError.Code.CANCELLED, method, "the CRI client is closed"));
    }

    /** Completes once per unary call: one value then completion, or one error. */
    private static final class UnaryObserver<R> implements StreamObserver<R> {
        private final Consumer<R> onValue;
        private final Consumer<Throwable> onFailure;
        private R value;

        UnaryObserver(Consumer<R> onValue, Consumer<Throwable> onFailure) {
            this.onValue = onValue;
            this.onFailure = onFailure;
        }

        @Override
        public void onNext(R next) {
            value = next;
        }

        @Override
        public void onError(Throwable t) {
            onFailure.accept(t);
        }

        @Override
        public void onCompleted() {
            onValue.accept(value);
        }
    }
}
