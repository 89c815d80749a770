package io.kubepekko.agent.cri;

import com.google.protobuf.Message;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.StreamObserver;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerStatusRequest;
import io.kubepekko.agent.cri.v1.ContainerStatusResponse;
import io.kubepekko.agent.cri.v1.CreateContainerRequest;
import io.kubepekko.agent.cri.v1.CreateContainerResponse;
import io.kubepekko.agent.cri.v1.ExecSyncRequest;
import io.kubepekko.agent.cri.v1.ExecSyncResponse;
import io.kubepekko.agent.cri.v1.ImageFsInfoRequest;
import io.kubepekko.agent.cri.v1.ImageFsInfoResponse;
import io.kubepekko.agent.cri.v1.ImageServiceGrpc;
import io.kubepekko.agent.cri.v1.ImageStatusRequest;
import io.kubepekko.agent.cri.v1.ImageStatusResponse;
import io.kubepekko.agent.cri.v1.ListContainersRequest;
import io.kubepekko.agent.cri.v1.ListContainersResponse;
import io.kubepekko.agent.cri.v1.ListImagesRequest;
import io.kubepekko.agent.cri.v1.ListImagesResponse;
import io.kubepekko.agent.cri.v1.ListPodSandboxRequest;
import io.kubepekko.agent.cri.v1.ListPodSandboxResponse;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.cri.v1.PodSandboxStatusRequest;
import io.kubepekko.agent.cri.v1.PodSandboxStatusResponse;
import io.kubepekko.agent.cri.v1.PullImageRequest;
import io.kubepekko.agent.cri.v1.PullImageResponse;
import io.kubepekko.agent.cri.v1.RemoveContainerRequest;
import io.kubepekko.agent.cri.v1.RemoveContainerResponse;
import io.kubepekko.agent.cri.v1.RemoveImageRequest;
import io.kubepekko.agent.cri.v1.RemoveImageResponse;
import io.kubepekko.agent.cri.v1.RemovePodSandboxRequest;
import io.kubepekko.agent.cri.v1.RemovePodSandboxResponse;
import io.kubepekko.agent.cri.v1.ReopenContainerLogRequest;
import io.kubepekko.agent.cri.v1.ReopenContainerLogResponse;
import io.kubepekko.agent.cri.v1.RunPodSandboxRequest;
import io.kubepekko.agent.cri.v1.RunPodSandboxResponse;
import io.kubepekko.agent.cri.v1.RuntimeServiceGrpc;
import io.kubepekko.agent.cri.v1.StartContainerRequest;
import io.kubepekko.agent.cri.v1.StartContainerResponse;
import io.kubepekko.agent.cri.v1.StatusRequest;
import io.kubepekko.agent.cri.v1.StatusResponse;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import io.kubepekko.agent.cri.v1.StopContainerResponse;
import io.kubepekko.agent.cri.v1.StopPodSandboxRequest;
import io.kubepekko.agent.cri.v1.StopPodSandboxResponse;
import io.kubepekko.agent.cri.v1.VersionRequest;
import io.kubepekko.agent.cri.v1.VersionResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * An in-process CRI v1 runtime for the agent's tests, served over a real unix socket so the real
 * {@link CriRuntime} client is exercised. It keeps sandboxes, containers and images in memory with
 * containerd 1.6's semantics and messages (see {@link FakeRuntimeState}): ids are 64 hex digits;
 * containers go CREATED → RUNNING → EXITED and an exited one never starts again (a restart is a new
 * CreateContainer with attempt + 1; the same name and attempt are refused while the old container
 * exists); List* filter on id, state, sandbox and exact labels; images are present locally or not,
 * and PullImage succeeds only for images put in the fake registry, failing otherwise as containerd
 * does without registry access.
 *
 * <p>Test controls: make a running container exit (with a code, or OOM-killed, or its OOM event
 * handled after its exit as containerd 1.6 may), write lines to its log file, script ExecSync
 * answers per container name, make starts of a container name fail, make every call UNAVAILABLE,
 * stall one method (never answered, for deadline tests), stop and restart the server while keeping
 * the state (a runtime restart), and read the calls it served.
 */
public final class FakeCri implements AutoCloseable {

    /** A call the fake served: the CRI method name and its request. */
    public record Call(String method, Message request) {}

    /**
     * The default local images: the sandbox image and busybox, as the project's containerd script
     * imports them.
     */
    public static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";

    public static final String BUSYBOX_IMAGE = "docker.io/library/busybox:1.36";

    private final Path socket;
    private final FakeRuntimeState state;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Set<String> stalled = ConcurrentHashMap.newKeySet();
    private final List<ServerCall<?, ?>> stalledCalls = new CopyOnWriteArrayList<>();
    private volatile boolean unavailable;
    private Server server;
    private EventLoopGroup boss;
    private EventLoopGroup workers;

    private FakeCri(Path socket, InstantSource clock) {
        this.socket = socket;
        this.state = new FakeRuntimeState(clock);
        state.addLocalImage(PAUSE_IMAGE, 300_000);
        state.addLocalImage(BUSYBOX_IMAGE, 1_200_000);
    }

    /**
     * Serves a fresh runtime on {@code socket} (a path short enough for a unix socket: under ~100
     * bytes).
     */
    public static FakeCri start(Path socket) {
        return start(socket, InstantSource.system());
    }

    public static FakeCri start(Path socket, InstantSource clock) {
        FakeCri fake = new FakeCri(socket, clock);
        fake.startServer();
        return fake;
    }

    public Path socket() {
        return socket;
    }

    public CriEndpoint endpoint() {
        return new CriEndpoint(socket);
    }

    // ---------------------------------------------------------------- server lifecycle

    /** Serves (again) on the socket, with the state kept: the second half of a runtime restart. */
    public synchronized void startServer() {
        if (server != null) {
            throw new IllegalStateException("already serving on " + socket);
        }
        try {
            Files.deleteIfExists(socket);
            boss = new EpollEventLoopGroup(1);
            workers = new EpollEventLoopGroup(1);
            server =
                    NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                            .channelType(EpollServerDomainSocketChannel.class)
                            .bossEventLoopGroup(boss)
                            .workerEventLoopGroup(workers)
                            // grpc-java sets SO_KEEPALIVE on accepted connections; a unix socket
                            // has none (netty would warn).
                            .withChildOption(ChannelOption.SO_KEEPALIVE, null)
                            .addService(ServerInterceptors.intercept(new Runtime(), new Controls()))
                            .addService(ServerInterceptors.intercept(new Images(), new Controls()))
                            .build()
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops serving (calls in flight are cancelled, the socket refuses), keeping the state. */
    public synchronized void stopServer() {
        if (server == null) {
            return;
        }
        server.shutdownNow();
        try {
            server.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boss.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        server = null;
        stalledCalls.clear();
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        clients.forEach(CriRuntime::close);
        stopServer();
    }

    private final List<CriRuntime> clients = new CopyOnWriteArrayList<>();

    /** A client of this runtime over its socket (10 s request timeout), closed with it. */
    public CriRuntime client() {
        CriRuntime client = CriRuntime.connect(endpoint(), Duration.ofSeconds(10));
        clients.add(client);
        return client;
    }

    // ---------------------------------------------------------------- controls

    /**
     * Every call answers UNAVAILABLE while true (a runtime that is down but whose socket still
     * accepts).
     */
    public void unavailable(boolean down) {
        unavailable = down;
    }

    /**
     * Calls of {@code method} (e.g. "Version") are never answered until {@link #release}: for
     * deadline tests.
     */
    public void stall(String method) {
        stalled.add(method);
    }

    public void release(String method) {
        stalled.remove(method);
    }

    /**
     * How many stalled calls have arrived and are waiting (unanswered) since the server started.
     */
    public int stalledCalls() {
        return stalledCalls.size();
    }

    /**
     * Adds an image to the runtime's local store (as {@code ctr images import} does); returns its
     * id.
     */
    public String addImage(String ref) {
        return state.addLocalImage(ref, 1_000_000);
    }

    /**
     * Makes {@code ref} pullable: PullImage of anything else fails as containerd without a registry
     * does.
     */
    public void addRegistryImage(String ref) {
        state.addRegistryImage(ref, 1_000_000);
    }

    /**
     * A running container's process exits; {@code reason} null lets containerd's rule decide
     * (Completed/Error).
     */
    public void exitContainer(String containerId, int exitCode, String reason) {
        state.exitContainer(containerId, exitCode, reason);
    }

    public void exitContainer(String containerId, int exitCode) {
        exitContainer(containerId, exitCode, null);
    }

    /**
     * The container writes {@code text} as one line of stdout to its log file (CRI format, as
     * containerd).
     */
    public void writeLog(String containerId, String text) {
        state.writeLog(containerId, text);
    }

    /** The kernel's OOM killer ends a running container: exit 137, reason OOMKilled. */
    public void oomKill(String containerId) {
        exitContainer(containerId, 137, "OOMKilled");
    }

    /**
     * containerd handles the container's task OOM event: its reason becomes OOMKilled whatever its
     * state. After {@code exitContainer(id, 137)} this is containerd 1.6's late OOM event: the exit
     * first reads {@code Error 137}, then {@code OOMKilled 137}; before the exit, the exit keeps
     * it.
     */
    public void oomEvent(String containerId) {
        state.oomEvent(containerId);
    }

    /**
     * containerd handles the container's task OOM event only after {@code reads} ContainerStatus
     * reads of it exited: those answer its exit's reason ({@code Error} for 137), the next ones
     * {@code OOMKilled}. A late OOM event in terms of what a client sees, without a timer.
     */
    public void oomEventAfterReads(String containerId, int reads) {
        state.oomEventAfterReads(containerId, reads);
    }

    /**
     * ExecSync in containers named {@code containerName} answers these in order, the last one from
     * then on. Unscripted containers answer exit code 0 with no output.
     */
    public void scriptExec(String containerName, ExecAnswer... answers) {
        List<FakeRuntimeState.ExecOutcome> outcomes = new ArrayList<>();
        for (ExecAnswer answer : answers) {
            outcomes.add(answer.outcome);
        }
        state.scriptExec(containerName, outcomes);
    }

    /**
     * StartContainer of containers named {@code containerName} fails with {@code message} (as
     * runc's "executable file not found" would); the container is left EXITED, 128, StartError.
     * Null clears it.
     */
    public void failStarts(String containerName, String message) {
        state.failStarts(containerName, message);
    }

    /**
     * Containers of that name ignore SIGTERM: StopContainer with a grace period ends them with
     * SIGKILL (137). Others exit 143 on SIGTERM. A busybox {@code sh} running as PID 1 ignores it
     * on real containerd.
     */
    public void ignoreSigterm(String containerName) {
        state.ignoreSigterm(containerName);
    }

    /** The NetworkReady condition of Status (false: containerd's "cni plugin not initialized"). */
    public void networkReady(boolean ready) {
        state.networkReady(ready);
    }

    public void runtimeVersion(String version) {
        state.runtimeVersion(version);
    }

    // ---------------------------------------------------------------- observations

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public List<Call> calls(String method) {
        return calls.stream().filter(c -> c.method().equals(method)).toList();
    }

    public void clearCalls() {
        calls.clear();
    }

    public List<PodSandbox> sandboxes() {
        return state.listPodSandbox(PodSandboxFilter.getDefaultInstance());
    }

    public List<Container> containers() {
        return state.listContainers(ContainerFilter.getDefaultInstance());
    }

    /** The newest container (highest attempt) named {@code name} in any sandbox, if any. */
    public Optional<Container> latestContainer(String name) {
        return containers().stream()
                .filter(c -> c.getMetadata().getName().equals(name))
                .reduce(
                        (a, b) ->
                                b.getMetadata().getAttempt() >= a.getMetadata().getAttempt()
                                        ? b
                                        : a);
    }

    /** One scripted ExecSync answer. */
    public static final class ExecAnswer {
        private final FakeRuntimeState.ExecOutcome outcome;

        private ExecAnswer(FakeRuntimeState.ExecOutcome outcome) {
            this.outcome = outcome;
        }

        public static ExecAnswer exit(int exitCode) {
            return exit(exitCode, "", "");
        }

        public static ExecAnswer exit(int exitCode, String stdout, String stderr) {
            return new ExecAnswer(new FakeRuntimeState.ExecOutcome.Exit(exitCode, stdout, stderr));
        }

        /**
         * The command outlives its timeout: DEADLINE_EXCEEDED, answered at once (no real waiting).
         */
        public static ExecAnswer timesOut() {
            return new ExecAnswer(new FakeRuntimeState.ExecOutcome.TimesOut());
        }

        /**
         * Runs {@code effect} as the command runs (a test moves its clock: the command took that
         * long), then answers.
         */
        public static ExecAnswer after(Runnable effect, ExecAnswer then) {
            return new ExecAnswer(new FakeRuntimeState.ExecOutcome.After(effect, then.outcome));
        }
    }

    // ---------------------------------------------------------------- gRPC plumbing

    /** Unavailability, stalls and the record of calls, in front of both services. */
    private final class Controls implements ServerInterceptor {
        @Override
        public <Q, A> ServerCall.Listener<Q> interceptCall(
                ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            String method = call.getMethodDescriptor().getBareMethodName();
            if (unavailable) {
                call.close(
                        Status.UNAVAILABLE.withDescription("FakeCri: the runtime is unavailable"),
                        new Metadata());
                return new ServerCall.Listener<>() {};
            }
            if (stalled.contains(method)) {
                stalledCalls.add(call);
                return new ServerCall.Listener<>() {};
            }
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
                    next.startCall(call, headers)) {
                @Override
                public void onMessage(Q message) {
                    calls.add(new Call(method, (Message) message));
                    super.onMessage(message);
                }
            };
        }
    }

    private static <T> void answer(StreamObserver<T> observer, Supplier<T> work) {
        T result;
        try {
            result = work.get();
        } catch (StatusRuntimeException e) {
            observer.onError(e);
            return;
        }
        observer.onNext(result);
        observer.onCompleted();
    }

    private final class Runtime extends RuntimeServiceGrpc.RuntimeServiceImplBase {
        @Override
        public void version(VersionRequest request, StreamObserver<VersionResponse> o) {
            answer(o, state::version);
        }

        @Override
        public void status(StatusRequest request, StreamObserver<StatusResponse> o) {
            answer(o, state::status);
        }

        @Override
        public void runPodSandbox(
                RunPodSandboxRequest request, StreamObserver<RunPodSandboxResponse> o) {
            answer(
                    o,
                    () ->
                            RunPodSandboxResponse.newBuilder()
                                    .setPodSandboxId(
                                            state.runPodSandbox(
                                                    request.getConfig(),
                                                    request.getRuntimeHandler()))
                                    .build());
        }

        @Override
        public void stopPodSandbox(
                StopPodSandboxRequest request, StreamObserver<StopPodSandboxResponse> o) {
            answer(
                    o,
                    () -> {
                        state.stopPodSandbox(request.getPodSandboxId());
                        return StopPodSandboxResponse.getDefaultInstance();
                    });
        }

        @Override
        public void removePodSandbox(
                RemovePodSandboxRequest request, StreamObserver<RemovePodSandboxResponse> o) {
            answer(
                    o,
                    () -> {
                        state.removePodSandbox(request.getPodSandboxId());
                        return RemovePodSandboxResponse.getDefaultInstance();
                    });
        }

        @Override
        public void podSandboxStatus(
                PodSandboxStatusRequest request, StreamObserver<PodSandboxStatusResponse> o) {
            answer(
                    o,
                    () ->
                            PodSandboxStatusResponse.newBuilder()
                                    .setStatus(state.podSandboxStatus(request.getPodSandboxId()))
                                    .build());
        }

        @Override
        public void listPodSandbox(
                ListPodSandboxRequest request, StreamObserver<ListPodSandboxResponse> o) {
            answer(
                    o,
                    () ->
                            ListPodSandboxResponse.newBuilder()
                                    .addAllItems(state.listPodSandbox(request.getFilter()))
                                    .build());
        }

        @Override
        public void createContainer(
                CreateContainerRequest request, StreamObserver<CreateContainerResponse> o) {
            answer(
                    o,
                    () ->
                            CreateContainerResponse.newBuilder()
                                    .setContainerId(
                                            state.createContainer(
                                                    request.getPodSandboxId(), request.getConfig()))
                                    .build());
        }

        @Override
        public void startContainer(
                StartContainerRequest request, StreamObserver<StartContainerResponse> o) {
            answer(
                    o,
                    () -> {
                        state.startContainer(request.getContainerId());
                        return StartContainerResponse.getDefaultInstance();
                    });
        }

        @Override
        public void stopContainer(
                StopContainerRequest request, StreamObserver<StopContainerResponse> o) {
            answer(
                    o,
                    () -> {
                        state.stopContainer(request.getContainerId(), request.getTimeout());
                        return StopContainerResponse.getDefaultInstance();
                    });
        }

        @Override
        public void removeContainer(
                RemoveContainerRequest request, StreamObserver<RemoveContainerResponse> o) {
            answer(
                    o,
                    () -> {
                        state.removeContainer(request.getContainerId());
                        return RemoveContainerResponse.getDefaultInstance();
                    });
        }

        @Override
        public void listContainers(
                ListContainersRequest request, StreamObserver<ListContainersResponse> o) {
            answer(
                    o,
                    () ->
                            ListContainersResponse.newBuilder()
                                    .addAllContainers(state.listContainers(request.getFilter()))
                                    .build());
        }

        @Override
        public void containerStatus(
                ContainerStatusRequest request, StreamObserver<ContainerStatusResponse> o) {
            answer(
                    o,
                    () ->
                            ContainerStatusResponse.newBuilder()
                                    .setStatus(state.containerStatus(request.getContainerId()))
                                    .build());
        }

        @Override
        public void reopenContainerLog(
                ReopenContainerLogRequest request, StreamObserver<ReopenContainerLogResponse> o) {
            answer(
                    o,
                    () -> {
                        state.reopenContainerLog(request.getContainerId());
                        return ReopenContainerLogResponse.getDefaultInstance();
                    });
        }

        @Override
        public void execSync(ExecSyncRequest request, StreamObserver<ExecSyncResponse> o) {
            answer(o, () -> state.execSync(request.getContainerId(), request.getTimeout()));
        }
    }

    private final class Images extends ImageServiceGrpc.ImageServiceImplBase {
        @Override
        public void listImages(ListImagesRequest request, StreamObserver<ListImagesResponse> o) {
            answer(
                    o,
                    () -> ListImagesResponse.newBuilder().addAllImages(state.listImages()).build());
        }

        @Override
        public void imageStatus(ImageStatusRequest request, StreamObserver<ImageStatusResponse> o) {
            answer(
                    o,
                    () -> {
                        ImageStatusResponse.Builder response = ImageStatusResponse.newBuilder();
                        state.imageStatus(request.getImage().getImage())
                                .ifPresent(response::setImage);
                        return response.build();
                    });
        }

        @Override
        public void pullImage(PullImageRequest request, StreamObserver<PullImageResponse> o) {
            answer(
                    o,
                    () ->
                            PullImageResponse.newBuilder()
                                    .setImageRef(state.pullImage(request.getImage().getImage()))
                                    .build());
        }

        @Override
        public void removeImage(RemoveImageRequest request, StreamObserver<RemoveImageResponse> o) {
            answer(
                    o,
                    () -> {
                        state.removeImage(request.getImage().getImage());
                        return RemoveImageResponse.getDefaultInstance();
                    });
        }

        @Override
        public void imageFsInfo(ImageFsInfoRequest request, StreamObserver<ImageFsInfoResponse> o) {
            answer(o, state::imageFsInfo);
        }
    }
}
