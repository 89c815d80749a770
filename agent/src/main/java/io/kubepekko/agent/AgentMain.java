package io.kubepekko.agent;

import io.kubepekko.agent.flags.AgentFlags;
import io.kubepekko.agent.flags.AgentSettings;
import io.kubepekko.api.openapi.OpenApiV3;
import io.kubepekko.api.status.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of {@code cluster-config/bin/agent}: reads the flags, connects to the container runtime and,
 * with a kubeconfig, starts the node's actors (registration, status, lease) and its pod actors (the pods bound to the
 * node from the API, one worker each, their statuses written back) in an actor system that runs until the process is
 * stopped, with the container log manager rotating their logs; the static pod sources ({@code --pod-manifest-path},
 * {@code --manifest-url}, and manifests posted to the agent's own server on {@code --address}:{@code --port}) feed the
 * same pod manager, which mirrors their pods in the API. Without a kubeconfig only the static pods run (standalone
 * mode).
 */
public final class AgentMain {
    private AgentMain() {}

    private static final Logger LOG = LoggerFactory.getLogger(AgentMain.class);

    /** The exit code of a command line the agent does not accept, as the API server's. */
    static final int EXIT_USAGE = 2;

    public static void main(String[] args) {
        // Before any HTTP client loads: an httpGet probe's Host header is sent, as the kubelet's.
        if (System.getProperty(io.kubepekko.agent.probe.HttpProbe.HOST_HEADER_PROPERTY) == null) {
            System.setProperty(io.kubepekko.agent.probe.HttpProbe.HOST_HEADER_PROPERTY, "host");
        }
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses {@code args} and acts on them; returns the exit code. */
    static int run(String[] args) {
        AgentFlags.Parsed parsed = AgentFlags.parse(args);
        if (parsed instanceof AgentFlags.Parsed.Invalid invalid) {
            System.err.println("Error: " + invalid.message());
            return EXIT_USAGE;
        }
        if (parsed instanceof AgentFlags.Parsed.Help) {
            System.out.print(AgentFlags.usage());
        } else if (parsed instanceof AgentFlags.Parsed.Version) {
            System.out.println(version());
        } else if (parsed instanceof AgentFlags.Parsed.Run run) {
            run.warnings().forEach(System.err::println);
            return start(run.settings());
        }
        return 0;
    }

    private static int start(AgentSettings settings) {
        LOG.info("kubepekko agent {} starting ({} mode) with {}", versionNumber(),
                settings.standalone() ? "standalone" : "API server", settings);
        io.kubepekko.agent.cri.CriRuntime runtime = io.kubepekko.agent.cri.CriRuntime.connect(
                io.kubepekko.agent.cri.CriEndpoint.parse(settings.containerRuntimeEndpoint().toString()),
                io.kubepekko.agent.cri.CriRuntime.DEFAULT_REQUEST_TIMEOUT);
        if (settings.standalone()) {
            String nodeName = io.kubepekko.agent.node.NodeAgentSettings.of(settings,
                    io.kubepekko.agent.node.HostFacts.hostName(), versionNumber()).identity().name();
            io.kubepekko.agent.runtime.NodeContext podNode = nodeContext(settings, nodeName);
            LOG.info("no --kubeconfig: standalone mode, running only the static pods of node {}", nodeName);
            return runSystem(settings, runtime, ctx -> {
                var pods = ctx.spawn(io.kubepekko.agent.manager.PodManager.standalone(runtime, podNode,
                        java.time.Clock.systemUTC(), io.kubepekko.agent.worker.PodWorkerSettings.DEFAULT,
                        staticSources(settings), settings.maxPods()), "pods");
                startStaticSources(ctx, settings, nodeName, pods);
                startLogRotation(ctx, settings, runtime, podNode);
                if (startServer(ctx, settings, nodeName, pods).isEmpty()) {
                    serverFailed.set(true);
                }
            }) == 0 && !serverFailed.get() ? 0 : 1;
        }
        io.kubepekko.agent.api.ApiClient client;
        try {
            client = io.kubepekko.agent.api.ApiClient.create(
                    io.kubepekko.agent.api.Kubeconfig.load(settings.kubeconfig().orElseThrow()), versionNumber());
        } catch (io.kubepekko.agent.api.Kubeconfig.Invalid | java.security.GeneralSecurityException e) {
            System.err.println("Error: invalid --kubeconfig " + settings.kubeconfig().orElseThrow() + ": " + e.getMessage());
            runtime.close();
            return EXIT_USAGE;
        }
        io.kubepekko.agent.node.NodeAgentSettings node = io.kubepekko.agent.node.NodeAgentSettings.of(settings,
                io.kubepekko.agent.node.HostFacts.hostName(), versionNumber());
        io.kubepekko.agent.runtime.NodeContext podNode = nodeContext(settings, node.identity().name());
        java.util.concurrent.ScheduledExecutorService scheduler = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "kubepekko-agent-reflector");
                    t.setDaemon(true);
                    return t;
                });
        LOG.info("kubepekko agent runs node {} on runtime {}", node.identity().name(), settings.containerRuntimeEndpoint());
        return runSystem(settings, runtime, ctx -> {
            var status = ctx.spawn(io.kubepekko.agent.manager.StatusManager.create(client), "pod-status");
            var pods = ctx.spawn(io.kubepekko.agent.manager.PodManager.create(client, runtime, podNode, status,
                    java.time.Clock.systemUTC(), io.kubepekko.agent.worker.PodWorkerSettings.DEFAULT,
                    scheduler, staticSources(settings), settings.maxPods()), "pods");
            startStaticSources(ctx, settings, node.identity().name(), pods);
            startLogRotation(ctx, settings, runtime, podNode);
            // The Node reports the port the server bound, so the server comes first.
            java.util.OptionalInt port = startServer(ctx, settings, node.identity().name(), pods);
            if (port.isEmpty()) {
                serverFailed.set(true);
                return;
            }
            ctx.spawn(io.kubepekko.agent.node.NodeAgent.create(client,
                    new io.kubepekko.agent.cri.CriRuntimeFacts(runtime), node.withKubeletPort(port.getAsInt()),
                    ctx.getSystem().ignoreRef(), java.time.Clock.systemUTC()), "node");
        }) == 0 && !serverFailed.get() ? 0 : 1;
    }

    /** Set when the agent's server could not be bound: the agent stops and exits 1, as the kubelet does. */
    private static final java.util.concurrent.atomic.AtomicBoolean serverFailed =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The source of manifests posted to the agent and the agent's own server ({@code --address}, {@code --port}),
     * bound before this returns: the bound port, or empty (logged, the system stopping) when it cannot be bound.
     */
    private static java.util.OptionalInt startServer(org.apache.pekko.actor.typed.javadsl.ActorContext<Void> ctx,
                                                     AgentSettings settings, String nodeName,
                                                     org.apache.pekko.actor.typed.ActorRef<io.kubepekko.agent.manager.PodManager.Command> pods) {
        var posted = ctx.spawn(io.kubepekko.agent.manifest.PostedPodSource.create(
                io.kubepekko.agent.manifest.PostedManifests.under(settings.rootDir()), nodeName,
                java.time.Clock.systemUTC(), set -> pods.tell(new io.kubepekko.agent.manager.PodManager.StaticPods(set)),
                io.kubepekko.agent.manifest.BoundedBytes.MAX_MANIFEST_BYTES), "static-server",
                // It writes and fsyncs the stored manifests itself: not on the dispatcher the other actors share.
                org.apache.pekko.actor.typed.DispatcherSelector.blocking());
        String address = settings.address().getHostAddress();
        try {
            // Blocks the guardian's start briefly: the Node must not be registered with a port not yet bound.
            org.apache.pekko.http.javadsl.ServerBinding binding = io.kubepekko.agent.server.AgentServer.bind(
                    ctx.getSystem(), address, settings.port(), posted,
                    io.kubepekko.agent.server.AgentServer.LOOPBACK_WRITERS,
                    io.kubepekko.agent.manifest.BoundedBytes.MAX_MANIFEST_BYTES)
                    .toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
            int port = binding.localAddress().getPort();
            LOG.info("agent server listening on {}:{} (healthz, static pod manifests from loopback)", address, port);
            return java.util.OptionalInt.of(port);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            Throwable cause = Failures.unwrap(e);
            LOG.error("failed to listen on {}:{}: {}", address, settings.port(), cause.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ctx.getSystem().terminate();
        return java.util.OptionalInt.empty();
    }

    /** The kinds of static pod source the flags name (the pod manager waits for each before removing orphans). */
    private static java.util.Set<io.kubepekko.agent.manifest.ManifestOrigin.Kind> staticSources(AgentSettings settings) {
        var kinds = java.util.EnumSet.noneOf(io.kubepekko.agent.manifest.ManifestOrigin.Kind.class);
        settings.podManifestPath().ifPresent(p -> kinds.add(io.kubepekko.agent.manifest.ManifestOrigin.Kind.FILE));
        settings.manifestUrl().ifPresent(u -> kinds.add(io.kubepekko.agent.manifest.ManifestOrigin.Kind.HTTP));
        kinds.add(io.kubepekko.agent.manifest.ManifestOrigin.Kind.SERVER); // the agent's own server always runs
        return kinds;
    }

    /** The static pod sources the flags name, each sending its pods to {@code pods}. */
    private static void startStaticSources(org.apache.pekko.actor.typed.javadsl.ActorContext<Void> ctx,
                                           AgentSettings settings, String nodeName,
                                           org.apache.pekko.actor.typed.ActorRef<io.kubepekko.agent.manager.PodManager.Command> pods) {
        java.util.function.Consumer<io.kubepekko.agent.manifest.StaticPodSet> target =
                set -> pods.tell(new io.kubepekko.agent.manager.PodManager.StaticPods(set));
        settings.podManifestPath().ifPresent(path -> ctx.spawn(io.kubepekko.agent.manifest.StaticPodSource.files(path,
                settings.fileCheckFrequency(), nodeName, java.time.Clock.systemUTC(), target), "static-file"));
        settings.manifestUrl().ifPresent(url -> ctx.spawn(io.kubepekko.agent.manifest.StaticPodSource.url(url,
                settings.manifestUrlHeaders(), settings.httpCheckFrequency(), nodeName, java.time.Clock.systemUTC(),
                target), "static-http"));
    }

    /** The container log manager, rotating the logs of the pods' containers under the pod log directory. */
    private static void startLogRotation(org.apache.pekko.actor.typed.javadsl.ActorContext<Void> ctx,
                                         AgentSettings settings, io.kubepekko.agent.cri.CriRuntime runtime,
                                         io.kubepekko.agent.runtime.NodeContext podNode) {
        ctx.spawn(io.kubepekko.agent.logs.ContainerLogManager.create(runtime, podNode.podLogsDir(),
                io.kubepekko.agent.logs.LogRotationPolicy.of(settings),
                io.kubepekko.agent.logs.ContainerLogManager.MONITOR_PERIOD, java.time.Clock.systemDefaultZone()),
                "container-logs");
    }

    /** Runs the agent's actors (spawned by {@code start}) until the process is stopped. */
    private static int runSystem(AgentSettings settings, io.kubepekko.agent.cri.CriRuntime runtime,
                                 java.util.function.Consumer<org.apache.pekko.actor.typed.javadsl.ActorContext<Void>> start) {
        org.apache.pekko.actor.typed.ActorSystem<Void> system = org.apache.pekko.actor.typed.ActorSystem.create(
                org.apache.pekko.actor.typed.javadsl.Behaviors.setup(ctx -> {
                    start.accept(ctx);
                    return org.apache.pekko.actor.typed.javadsl.Behaviors.empty();
                }), "kubepekko-agent",
                // The hook below stops the system; Pekko's own would race it and warn at exit.
                com.typesafe.config.ConfigFactory.parseString("pekko.jvm-shutdown-hooks = off")
                        .withFallback(com.typesafe.config.ConfigFactory.load()));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            system.terminate();
            runtime.close();
        }, "kubepekko-agent-shutdown"));
        system.getWhenTerminated().toCompletableFuture().join();
        return 0;
    }

    /**
     * What the node gives its pods: {@code --node-ip} (else the host's addresses, as the Node's InternalIPs) as their
     * {@code hostIP}, the host's resolver, memory and the allocatable amounts the Node reports (the kubelet's default
     * eviction thresholds: 100 MiB of memory, 10 % of the root dir's file system). No cluster DNS yet.
     */
    static io.kubepekko.agent.runtime.NodeContext nodeContext(AgentSettings settings, String nodeName) {
        io.kubepekko.agent.node.HostFacts host = io.kubepekko.agent.node.HostFacts.read(settings.rootDir());
        java.util.List<String> ips = (settings.nodeIps().isEmpty() ? host.internalIps() : settings.nodeIps()).stream()
                .map(java.net.InetAddress::getHostAddress).toList();
        io.kubepekko.agent.runtime.ResolvConf resolv;
        try {
            resolv = io.kubepekko.agent.runtime.ResolvConf.parse(
                    java.nio.file.Files.readString(java.nio.file.Path.of("/etc/resolv.conf")));
        } catch (java.io.IOException e) {
            LOG.warn("cannot read /etc/resolv.conf ({}): pods get no DNS servers", e.toString());
            resolv = io.kubepekko.agent.runtime.ResolvConf.EMPTY;
        }
        long memory = host.memoryBytes();
        return new io.kubepekko.agent.runtime.NodeContext(nodeName, settings.rootDir(), ips, java.util.List.of(), "",
                resolv, memory, host.cpuCores() * 1000L, Math.max(0, memory - 100L * 1024 * 1024),
                (long) (host.ephemeralStorageBytes() * 0.9), io.kubepekko.agent.runtime.PodCgroups.ofNode());
    }

    static String version() {
        return "kubepekko-agent " + versionNumber() + " (Kubernetes " + OpenApiV3.DEFAULT_KUBERNETES_VERSION + ")";
    }

    private static String versionNumber() {
        String v = AgentMain.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
