package io.kubepekko.actors.authorization;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.controllers.Informer;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.rbac.RbacBinding;
import io.kubepekko.api.auth.rbac.RbacPolicy;
import io.kubepekko.api.auth.rbac.RbacRole;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.PartialJson;
import io.kubepekko.api.watch.WatchEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The RBAC policy this server authorizes with: an {@link Informer} on each of Roles, ClusterRoles,
 * RoleBindings and ClusterRoleBindings keeps a parsed copy of them, and an immutable {@link
 * RbacPolicy} built from that copy is published through a volatile reference ({@link #policy()})
 * that request threads read without locking. Every server runs its own (not a singleton): each
 * authorizes its own requests from its own watch caches, as every kube-apiserver runs its own RBAC
 * authorizer over its own informers.
 *
 * <p>Rebuilds are coalesced: the first change after a rebuild starts a timer of {@link
 * Settings#rebuildDelay}, and the policy is rebuilt once when it fires, with every change received
 * by then; a burst of a thousand binding writes costs a handful of rebuilds, not a thousand. So a
 * change reaches authorization at most the informer's lag (the watch cache's delivery) plus the
 * rebuild delay plus one rebuild after it was committed; kube's authorizer lags by its informers'
 * delay alone.
 *
 * <p>Until all four kinds have been listed once the policy is empty (it allows nothing) and {@link
 * #readiness()} says so: a server must not serve authorized requests before, as kube-apiserver
 * waits for its RBAC informers to sync.
 */
public final class RbacPolicySource implements AutoCloseable {

    private static final String RBAC = "rbac.authorization.k8s.io";

    /**
     * @param rebuildDelay how long changes are gathered before one rebuild
     * @param informer the informers' relist/rewatch back-off
     */
    public record Settings(Duration rebuildDelay, Backoff informer) {
        /** {@code kubepekko.authorization.rbac} of the server's config. */
        public static Settings fromConfig(Config config) {
            Config rbac = config.getConfig("kubepekko.authorization.rbac");
            return new Settings(
                    rbac.getDuration("rebuild-delay"),
                    Backoff.fromConfig(rbac.getConfig("informer-backoff")));
        }
    }

    /** What the actor publishes and the server reads. */
    private record Shared(
            AtomicReference<RbacPolicy> current,
            AtomicBoolean synced,
            AtomicInteger rebuilds,
            CompletableFuture<Void> stopped) {}

    private final Shared shared;
    private final ActorRef<Command> actor;

    private RbacPolicySource(Shared shared, ActorRef<Command> actor) {
        this.shared = shared;
        this.actor = actor;
    }

    /** Starts following the four kinds through {@code controlPlane}'s watch caches. */
    public static RbacPolicySource start(ControlPlane controlPlane, Settings settings) {
        return start(
                controlPlane.system(),
                Informer.ListWatch.of(controlPlane),
                controlPlane.registry(),
                settings);
    }

    /** Starts following the four kinds of {@code registry} through {@code source}. */
    static RbacPolicySource start(
            ActorSystem<?> system,
            Informer.ListWatch source,
            Registry registry,
            Settings settings) {
        Shared shared =
                new Shared(
                        new AtomicReference<>(RbacPolicy.empty()),
                        new AtomicBoolean(),
                        new AtomicInteger(),
                        new CompletableFuture<>());
        Map<GroupResource, ResourceType> kinds = kinds(registry);
        ActorRef<Command> actor =
                system.systemActorOf(
                        Behaviors.<Command>setup(
                                ctx ->
                                        Behaviors.withTimers(
                                                timers ->
                                                        new Follower(
                                                                ctx, timers, source, kinds,
                                                                settings, shared))),
                        "rbac-policy",
                        Props.empty());
        return new RbacPolicySource(shared, actor);
    }

    /** The current snapshot, for {@code RbacAuthorizer}: read once per decision. */
    public Supplier<RbacPolicy> policy() {
        AtomicReference<RbacPolicy> current = shared.current();
        return current::get;
    }

    /** Whether the four kinds have been listed at least once, so the policy is complete. */
    public boolean synced() {
        return shared.synced().get();
    }

    /** How many times the policy has been built (coalescing's proof). */
    int rebuilds() {
        return shared.rebuilds().get();
    }

    /** Empty once synced; else why not ready, for /readyz. */
    public Optional<String> readiness() {
        return synced() ? Optional.empty() : Optional.of("RBAC roles and bindings not synced yet");
    }

    /**
     * Stops following and waits (bounded) until the informers have stopped: an informer relisting
     * while the node shuts down asks a sequencer through sharding, which then finds no home and
     * holds up the shard region's shutdown. The last policy stays readable.
     */
    @Override
    public void close() {
        actor.tell(Stop.INSTANCE);
        try {
            shared.stopped().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // The actor system's termination stops it anyway.
        }
    }

    private static Map<GroupResource, ResourceType> kinds(Registry registry) {
        Map<GroupResource, ResourceType> kinds = new HashMap<>();
        for (String resource :
                new String[] {"roles", "clusterroles", "rolebindings", "clusterrolebindings"}) {
            GroupResource gr = new GroupResource(RBAC, resource);
            kinds.put(
                    gr,
                    registry.find(gr)
                            .orElseThrow(() -> new IllegalStateException(gr + " is not served")));
        }
        return kinds;
    }

    private sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    private enum Rebuild implements Command {
        INSTANCE
    }

    private enum Stop implements Command {
        INSTANCE
    }

    /**
     * What RBAC reads of the four kinds: the rest of a stored object (managedFields above all) is
     * never parsed.
     */
    private static final PartialJson RBAC_FIELDS =
            PartialJson.keeping(
                    Set.of(
                            "metadata.name",
                            "metadata.namespace",
                            "metadata.labels",
                            "rules",
                            "aggregationRule",
                            "roleRef",
                            "subjects"));

    /** The actor: the parsed objects of each kind by namespace/name, and the rebuild timer. */
    private static final class Follower extends AbstractBehavior<Command> {
        private final TimerScheduler<Command> timers;
        private final Settings settings;
        private final AtomicReference<RbacPolicy> current;
        private final AtomicBoolean synced;
        private final GroupResource roles = new GroupResource(RBAC, "roles");
        private final GroupResource clusterRoles = new GroupResource(RBAC, "clusterroles");
        private final GroupResource roleBindings = new GroupResource(RBAC, "rolebindings");
        private final GroupResource clusterRoleBindings =
                new GroupResource(RBAC, "clusterrolebindings");
        private final Map<GroupResource, Map<String, RbacRole>> roleObjects =
                Map.of(roles, new HashMap<>(), clusterRoles, new HashMap<>());
        private final Map<GroupResource, Map<String, RbacBinding>> bindingObjects =
                Map.of(roleBindings, new HashMap<>(), clusterRoleBindings, new HashMap<>());
        private final Set<GroupResource> listed = new HashSet<>();
        private final AtomicInteger rebuilds;
        private final CompletableFuture<Void> stopped;

        Follower(
                ActorContext<Command> ctx,
                TimerScheduler<Command> timers,
                Informer.ListWatch source,
                Map<GroupResource, ResourceType> kinds,
                Settings settings,
                Shared shared) {
            super(ctx);
            this.timers = timers;
            this.settings = settings;
            this.current = shared.current();
            this.synced = shared.synced();
            this.rebuilds = shared.rebuilds();
            this.stopped = shared.stopped();
            var events = ctx.messageAdapter(Informer.Event.class, Observed::new);
            kinds.forEach(
                    (gr, type) ->
                            ctx.spawn(
                                    Informer.create(
                                            source,
                                            type,
                                            events,
                                            settings.informer(),
                                            RBAC_FIELDS::parse),
                                    "informer-" + gr.resource()));
        }

        @Override
        public Receive<Command> createReceive() {
            return newReceiveBuilder()
                    .onMessage(Observed.class, this::onObserved)
                    .onMessageEquals(
                            Rebuild.INSTANCE,
                            () -> {
                                rebuild();
                                return this;
                            })
                    .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                    .onSignal(
                            PostStop.class,
                            s -> {
                                stopped.complete(null);
                                return this;
                            })
                    .build();
        }

        private Behavior<Command> onObserved(Observed observed) {
            Informer.Event event = observed.event();
            GroupResource gr = event.type().groupResource();
            if (roleObjects.containsKey(gr)) {
                apply(roleObjects.get(gr), RbacRole::fromJson, event);
            } else {
                apply(bindingObjects.get(gr), RbacBinding::fromJson, event);
            }
            if (event instanceof Informer.Synced) {
                listed.add(gr);
                if (!synced.get() && listed.size() == 4) {
                    // The first complete view is published at once: readiness waits for it.
                    rebuild();
                    synced.set(true);
                    getContext()
                            .getLog()
                            .info("RBAC policy synced ({} bindings)", current.get().bindingCount());
                    return this;
                }
            }
            if (synced.get() && !timers.isTimerActive(Rebuild.INSTANCE)) {
                timers.startSingleTimer(Rebuild.INSTANCE, settings.rebuildDelay());
            }
            return this;
        }

        private static <T> void apply(
                Map<String, T> objects, Function<ObjectNode, T> parse, Informer.Event event) {
            if (event instanceof Informer.Synced s) {
                objects.clear();
                s.objects().forEach(o -> objects.put(key(o), parse.apply(o)));
            } else if (event instanceof Informer.Changed c) {
                if (c.change() == WatchEvent.Type.DELETED) {
                    objects.remove(key(c.object()));
                } else {
                    objects.put(key(c.object()), parse.apply(c.object()));
                }
            }
        }

        private void rebuild() {
            rebuilds.incrementAndGet();
            current.set(
                    RbacPolicy.of(
                            List.copyOf(roleObjects.get(roles).values()),
                            List.copyOf(roleObjects.get(clusterRoles).values()),
                            List.copyOf(bindingObjects.get(roleBindings).values()),
                            List.copyOf(bindingObjects.get(clusterRoleBindings).values())));
        }

        private static String key(ObjectNode o) {
            return ObjectMeta.namespace(o) + "/" + ObjectMeta.name(o);
        }
    }
}
