package io.kubepekko.agent;

import com.typesafe.config.ConfigFactory;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.Kubeconfig;
import io.kubepekko.agent.cri.CriEndpoint;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.CriRuntimeFacts;
import io.kubepekko.agent.flags.AgentFlags;
import io.kubepekko.agent.flags.AgentSettings;
import io.kubepekko.agent.logs.ContainerLogManager;
import io.kubepekko.agent.logs.LogRotationPolicy;
import io.kubepekko.agent.manager.PodManager;
import io.kubepekko.agent.manager.StatusManager;
import io.kubepekko.agent.manifest.BoundedBytes;
import io.kubepekko.agent.manifest.ManifestOrigin;
import io.kubepekko.agent.manifest.PostedManifests;
import io.kubepekko.agent.manifest.PostedPodSource;
import io.kubepekko.agent.manifest.StaticPodSet;
import io.kubepekko.agent.manifest.StaticPodSource;
import io.kubepekko.agent.node.HostFacts;
import io.kubepekko.agent.node.NodeAgent;
import io.kubepekko.agent.node.NodeAgentSettings;
import io.kubepekko.agent.probe.HttpProbe;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodCgroups;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.server.AgentServer;
import io.kubepekko.agent.worker.PodWorkerSettings;
import io.kubepekko.api.openapi.OpenApiV3;
import io.kubepekko.api.status.Failures;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of {@code cluster-config/bin/agent}: reads the flags, connects to the container
 * runtime and, with a kubeconfig, starts the node's actors (registration, status, lease) and its
 * pod actors (the pods bound to the node from the API, one worker each, their statuses written
 * back) in an actor system that runs until the process is stopped, with the container log manager
 * rotating their logs; the static pod sources ({@code --pod-manifest-path}, {@code --manifest-url},
 * and manifests posted to the agent's own server on {@code --address}:{@code --port}) feed the same
 * pod manager, which mirrors their pods in the API. Without a kubeconfig only the static pods run
 * (standalone mode).
 */
public final class AgentMain {
    private AgentMain() {}

    private static final Logger LOG = LoggerFactory.getLogger(AgentMain.class);

    /** The exit code of a command line the agent does not accept, as the API server's. */
    static final int EXIT_USAGE = 2;

    public static void main(String[] args) {
        // Before any HTTP client loads: an httpGet probe's Host header is sent, as the kubelet's.
        if (System.getProperty(HttpProbe.HOST_HEADER_PROPERTY) == null) {
            System.setProperty(HttpProbe.HOST_HEADER_PROPERTY, "host");
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
            run.logging().apply();
            run.warnings().forEach(System.err::println);
            return start(run.settings());
        }
        return 0;
    }

    private static int start(AgentSettings settings) {
        LOG.info(
                "kubepekko agent {} starting ({} mode) with {}",
                versionNumber(),
                settings.standalone() ? "standalone" : "API server",
                settings);
        CriRuntime runtime =
                CriRuntime.connect(
                        CriEndpoint.parse(settings.containerRuntimeEndpoint().toString()),
                        CriRuntime.DEFAULT_REQUEST_TIMEOUT);
        if (settings.standalone()) {
            String nodeName =
                    NodeAgentSettings.of(settings, HostFacts.hostName(), versionNumber())
                            .identity()
                            .name();
            NodeContext podNode = nodeContext(settings, nodeName);
            LOG.info(
                    "no --kubeconfig: standalone mode, running only the static pods of node {}",
                    nodeName);
            return runSystem(
                                            settings,
                                            runtime,
                                            ctx -> {
                                                var pods =
                                                        ctx.spawn(
                                                                PodManager.standalone(
                                                                        runtime,
                                                                        podNode,
                                                                        Clock.systemUTC(),
                                                                        PodWorkerSettings.DEFAULT,
                                                                        staticSources(settings),
                                                                        settings.maxPods()),
                                                                "pods");
                                                startStaticSources(ctx, settings, nodeName, pods);
                                                startLogRotation(ctx, settings, runtime, podNode);
                                                if (startServer(ctx, settings, nodeName, pods)
                                                        .isEmpty()) {
                                                    serverFailed.set(true);
                                                }
                                            })
                                    == 0
                            && !serverFailed.get()
                    ? 0
                    : 1;
        }
        ApiClient client;
        try {
            client =
                    ApiClient.create(
                            Kubeconfig.load(settings.kubeconfig().orElseThrow()), versionNumber());
        } catch (Kubeconfig.Invalid | GeneralSecurityException e) {
            System.err.println(
                    "Error: invalid --kubeconfig "
                            + settings.kubeconfig().orElseThrow()
                            + ": "
                            + e.getMessage());
            runtime.close();
            return EXIT_USAGE;
        }
        NodeAgentSettings node =
                NodeAgentSettings.of(settings, HostFacts.hostName(), versionNumber())
                        .withRuntimeDownAfter(ConfigFactory.load());
        NodeContext podNode = nodeContext(settings, node.identity().name());
        ScheduledExecutorService scheduler =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "kubepekko-agent-reflector");
                            t.setDaemon(true);
                            return t;
                        });
        LOG.info(
                "kubepekko agent runs node {} on runtime {}",
                node.identity().name(),
                settings.containerRuntimeEndpoint());
        return runSystem(
                                        settings,
                                        runtime,
                                        ctx -> {
                                            var status =
                                                    ctx.spawn(
                                                            StatusManager.create(client),
                                                            "pod-status");
                                            var pods =
                                                    ctx.spawn(
                                                            PodManager.create(
                                                                    client,
                                                                    runtime,
                                                                    podNode,
                                                                    status,
                                                                    Clock.systemUTC(),
                                                                    PodWorkerSettings.DEFAULT,
                                                                    scheduler,
                                                                    staticSources(settings),
                                                                    settings.maxPods()),
                                                            "pods");
                                            startStaticSources(
                                                    ctx, settings, node.identity().name(), pods);
                                            startLogRotation(ctx, settings, runtime, podNode);
                                            // The Node reports the port the server bound, so the
                                            // server comes first.
                                            OptionalInt port =
                                                    startServer(
                                                            ctx,
                                                            settings,
                                                            node.identity().name(),
                                                            pods);
                                            if (port.isEmpty()) {
                                                serverFailed.set(true);
                                                return;
                                            }
                                            ctx.spawn(
                                                    NodeAgent.create(
                                                            client,
                                                            new CriRuntimeFacts(runtime),
                                                            node.withKubeletPort(port.getAsInt()),
                                                            ctx.getSystem().ignoreRef(),
                                                            Clock.systemUTC()),
                                                    "node");
                                        })
                                == 0
                        && !serverFailed.get()
                ? 0
                : 1;
    }

    /**
     * Set when the agent's server could not be bound: the agent stops and exits 1, as the kubelet
     * does.
     */
    private static final AtomicBoolean serverFailed = new AtomicBoolean();

    /**
     * The source of manifests posted to the agent and the agent's own server ({@code --address},
     * {@code --port}), bound before this returns: the bound port, or empty (logged, the system
     * stopping) when it cannot be bound.
     */
    private static OptionalInt startServer(
            ActorContext<Void> ctx,
            AgentSettings settings,
            String nodeName,
            ActorRef<PodManager.Command> pods) {
        var posted =
                ctx.spawn(
                        PostedPodSource.create(
                                PostedManifests.under(settings.rootDir()),
                                nodeName,
                                Clock.systemUTC(),
                                set -> pods.tell(new PodManager.StaticPods(set)),
                                BoundedBytes.MAX_MANIFEST_BYTES),
                        "static-server",
                        // It writes and fsyncs the stored manifests itself: not on the dispatcher
                        // the other actors share.
                        DispatcherSelector.blocking());
        String address = settings.address().getHostAddress();
        try {
            // Blocks the guardian's start briefly: the Node must not be registered with a port not
            // yet bound.
            ServerBinding binding =
                    AgentServer.bind(
                                    ctx.getSystem(),
                                    address,
                                    settings.port(),
                                    posted,
                                    AgentServer.LOOPBACK_WRITERS,
                                    BoundedBytes.MAX_MANIFEST_BYTES)
                            .toCompletableFuture()
                            .get(30, TimeUnit.SECONDS);
            int port = binding.localAddress().getPort();
            LOG.info(
                    "agent server listening on {}:{} (healthz, static pod manifests from loopback)",
                    address,
                    port);
            return OptionalInt.of(port);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = Failures.unwrap(e);
            LOG.error("failed to listen on {}:{}: {}", address, settings.port(), cause.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ctx.getSystem().terminate();
        return OptionalInt.empty();
    }

    /**
     * The kinds of static pod source the flags name (the pod manager waits for each before removing
     * orphans).
     */
    private static Set<ManifestOrigin.Kind> staticSources(AgentSettings settings) {
        var kinds = EnumSet.noneOf(ManifestOrigin.Kind.class);
        settings.podManifestPath().ifPresent(p -> kinds.add(ManifestOrigin.Kind.FILE));
        settings.manifestUrl().ifPresent(u -> kinds.add(ManifestOrigin.Kind.HTTP));
        kinds.add(ManifestOrigin.Kind.SERVER); // the agent's own server always runs
        return kinds;
    }

    /** The static pod sources the flags name, each sending its pods to {@code pods}. */
    private static void startStaticSources(
            ActorContext<Void> ctx,
            AgentSettings settings,
            String nodeName,
            ActorRef<PodManager.Command> pods) {
        Consumer<StaticPodSet> target = set -> pods.tell(new PodManager.StaticPods(set));
        settings.podManifestPath()
                .ifPresent(
                        path ->
                                ctx.spawn(
                                        StaticPodSource.files(
                                                path,
                                                settings.fileCheckFrequency(),
                                                nodeName,
                                                Clock.systemUTC(),
                                                target),
                                        "static-file"));
        settings.manifestUrl()
                .ifPresent(
                        url ->
                                ctx.spawn(
                                        StaticPodSource.url(
                                                url,
                                                settings.manifestUrlHeaders(),
                                                settings.httpCheckFrequency(),
                                                nodeName,
                                                Clock.systemUTC(),
                                                target),
                                        "static-http"));
    }

    /**
     * The container log manager, rotating the logs of the pods' containers under the pod log
     * directory.
     */
    private static void startLogRotation(
            ActorContext<Void> ctx,
            AgentSettings settings,
            CriRuntime runtime,
            NodeContext podNode) {
        ctx.spawn(
                ContainerLogManager.create(
                        runtime,
                        podNode.podLogsDir(),
                        LogRotationPolicy.of(settings),
                        ContainerLogManager.MONITOR_PERIOD,
                        Clock.systemDefaultZone()),
                "container-logs");
    }

    /** Runs the agent's actors (spawned by {@code start}) until the process is stopped. */
    private static int runSystem(
            AgentSettings settings, CriRuntime runtime, Consumer<ActorContext<Void>> start) {
        ActorSystem<Void> system =
                ActorSystem.create(
                        Behaviors.setup(
                                ctx -> {
                                    start.accept(ctx);
                                    return Behaviors.empty();
                                }),
                        "kubepekko-agent",
                        // The hook below stops the system; Pekko's own would race it and warn at
                        // exit.
                        ConfigFactory.parseString("pekko.jvm-shutdown-hooks = off")
                                .withFallback(ConfigFactory.load()));
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    system.terminate();
                                    runtime.close();
                                },
                                "kubepekko-agent-shutdown"));
        system.getWhenTerminated().toCompletableFuture().join();
        return 0;
    }

    /**
     * What the node gives its pods: {@code --node-ip} (else the host's addresses, as the Node's
     * InternalIPs) as their {@code hostIP}, the host's resolver, memory and the allocatable amounts
     * the Node reports (the kubelet's default eviction thresholds: 100 MiB of memory, 10 % of the
     * root dir's file system). No cluster DNS yet.
     */
    static NodeContext nodeContext(AgentSettings settings, String nodeName) {
        HostFacts host = HostFacts.read(settings.rootDir());
        List<String> ips =
                (settings.nodeIps().isEmpty() ? host.internalIps() : settings.nodeIps())
                        .stream().map(InetAddress::getHostAddress).toList();
        ResolvConf resolv;
        try {
            resolv = ResolvConf.parse(Files.readString(Path.of("/etc/resolv.conf")));
        } catch (IOException e) {
            LOG.warn("cannot read /etc/resolv.conf ({}): pods get no DNS servers", e.toString());
            resolv = ResolvConf.EMPTY;
        }
        long memory = host.memoryBytes();
        return new NodeContext(
                nodeName,
                settings.rootDir(),
                ips,
                List.of(),
                "",
                resolv,
                memory,
                host.cpuCores() * 1000L,
                Math.max(0, memory - 100L * 1024 * 1024),
                (long) (host.ephemeralStorageBytes() * 0.9),
                PodCgroups.ofNode());
    }

    static String version() {
        return "kubepekko-agent "
                + versionNumber()
                + " (Kubernetes "
                + OpenApiV3.DEFAULT_KUBERNETES_VERSION
                + ")";
    }

    private static String versionNumber() {
        String v = AgentMain.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
