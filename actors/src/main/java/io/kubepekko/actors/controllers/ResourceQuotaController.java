package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.quota.QuotaAmount;
import io.kubepekko.api.admission.quota.QuotaLedger;
import io.kubepekko.api.admission.quota.QuotaSpec;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.WatchEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * kube-controller-manager's resource quota controller: keeps each ResourceQuota's {@code
 * status.hard} (its {@code spec.hard}) and {@code status.used} (what the objects its informers
 * observe use, every hard resource listed) current. Its informers feed a {@link QuotaLedger} of its
 * own, without charges, following only the resources the quotas need ({@link QuotaInformers}): a
 * change of a tracked object queues its namespace's quotas, and a sync of a quota whose usage is
 * complete writes its status when it differs, with the quota's resourceVersion; a 409 is retried
 * after a back-off from the informer's newer copy. Admission never waits on it: it checks against
 * its own server's ledger.
 */
public final class ResourceQuotaController
        extends AbstractBehavior<ResourceQuotaController.Command> {

    /** The controller's protocol: informer events and the results of its own syncs. */
    public sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    private record Worked(String key, Throwable failure) implements Command {}

    private record Requeue(String key) implements Command {}

    private enum Resync implements Command {
        INSTANCE
    }

    /**
     * @param workers quotas synced at once
     * @param informer the informers' back-off
     * @param retry back-off of a quota whose status write failed
     * @param resyncPeriod how often every quota's usage is recalculated and synced whatever its
     *     informers told (kube-controller-manager's {@code --resource-quota-sync-period})
     */
    public record Settings(int workers, Backoff informer, Backoff retry, Duration resyncPeriod) {
        /** {@code kubepekko.controllers.resource-quota-controller} of the server's config. */
        static Settings fromConfig(Config config) {
            return new Settings(
                    config.getInt("workers"),
                    Backoff.fromConfig(config.getConfig("informer-backoff")),
                    Backoff.fromConfig(config.getConfig("retry-backoff")),
                    config.getDuration("resync-period"));
        }
    }

    private static final GroupResource QUOTAS = new GroupResource("", "resourcequotas");

    private final ControllerClient client;
    private final ResourceType quotaType;
    private final QuotaLedger ledger;
    private final WorkQueue queue;
    private final QuotaInformers informers;

    /** Every quota by namespace, then name, whole (its status is written back whole). */
    private final Map<String, Map<String, ObjectNode>> quotas = new HashMap<>();

    public static Behavior<Command> create(
            ControllerClient client, Settings settings, Clock clock) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new ResourceQuotaController(
                                                ctx, client, settings, clock, timers)));
    }

    private ResourceQuotaController(
            ActorContext<Command> ctx,
            ControllerClient client,
            Settings settings,
            Clock clock,
            TimerScheduler<Command> timers) {
        super(ctx);
        this.client = client;
        ControlPlane controlPlane = client.controlPlane();
        this.quotaType = controlPlane.registry().find(QUOTAS).orElseThrow();
        this.ledger = QuotaLedger.ofSpecs(clock);
        this.queue =
                new WorkQueue(
                        settings.workers(),
                        settings.retry(),
                        (key, delay) -> timers.startSingleTimer(key, new Requeue(key), delay));
        timers.startTimerWithFixedDelay(Resync.INSTANCE, settings.resyncPeriod());
        this.informers =
                new QuotaInformers(
                        ctx,
                        Informer.ListWatch.of(controlPlane),
                        controlPlane.registry(),
                        ledger,
                        settings.informer(),
                        ctx.messageAdapter(Informer.Event.class, Observed::new));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Observed.class, this::onObserved)
                .onMessageEquals(Resync.INSTANCE, this::onResync)
                .onMessage(Worked.class, this::onWorked)
                .onMessage(
                        Requeue.class,
                        r -> {
                            queue.add(r.key());
                            drain();
                            return this;
                        })
                .build();
    }

    private Behavior<Command> onObserved(Observed observed) {
        Informer.Event event = observed.event();
        GroupResource resource = event.type().groupResource();
        boolean ofQuotas = resource.equals(QUOTAS);
        if (event instanceof Informer.Synced s) {
            if (ofQuotas) {
                informers.observed(s.objects());
            }
            ledger.replace(resource, s.objects());
            if (ofQuotas) {
                quotas.clear();
                s.objects().forEach(this::rememberQuota);
            }
            quotas.forEach((ns, named) -> named.keySet().forEach(n -> queue.add(ns + "/" + n)));
        } else if (event instanceof Informer.Changed c) {
            String ns = ObjectMeta.namespace(c.object());
            if (c.change() == WatchEvent.Type.DELETED) {
                ledger.remove(resource, c.object());
                if (ofQuotas) {
                    Map<String, ObjectNode> named = quotas.get(ns);
                    if (named != null) {
                        named.remove(ObjectMeta.name(c.object()));
                    }
                    queue.forget(ns + "/" + ObjectMeta.name(c.object()));
                }
            } else {
                if (ofQuotas) {
                    informers.observed(c.object());
                }
                ledger.put(resource, c.object());
                if (ofQuotas) {
                    rememberQuota(c.object());
                }
            }
            Map<String, ObjectNode> named = quotas.get(ns);
            if (named != null) {
                named.keySet().forEach(n -> queue.add(ns + "/" + n));
            }
        }
        drain();
        return this;
    }

    /**
     * kube's full resync: usage evaluated again (time ends a pod's grace period, which no event
     * tells) and every quota synced.
     */
    private Behavior<Command> onResync() {
        ledger.reevaluate();
        quotas.forEach((ns, named) -> named.keySet().forEach(n -> queue.add(ns + "/" + n)));
        drain();
        return this;
    }

    private void rememberQuota(ObjectNode quota) {
        quotas.computeIfAbsent(ObjectMeta.namespace(quota), n -> new HashMap<>())
                .put(ObjectMeta.name(quota), quota);
    }

    /**
     * Syncs the queued quotas whose usage is complete; a quota limiting something of a resource
     * whose informer has not listed yet is let go unsynced (its status is not reported on an
     * undercount) and queued again by that informer's list, which queues every quota.
     */
    private void drain() {
        for (String key = queue.next(); key != null; key = queue.next()) {
            int slash = key.indexOf('/');
            if (ledger.readiness(key.substring(0, slash), key.substring(slash + 1)).isPresent()) {
                queue.done(key);
                continue;
            }
            String started = key;
            getContext().pipeToSelf(sync(key), (done, e) -> new Worked(started, e));
        }
    }

    /** Writes the quota's status when it is not what its spec and the observed usage make it. */
    private CompletionStage<?> sync(String key) {
        int slash = key.indexOf('/');
        String ns = key.substring(0, slash);
        String name = key.substring(slash + 1);
        ObjectNode quota = quotas.getOrDefault(ns, Map.of()).get(name);
        if (quota == null) {
            return CompletableFuture.completedFuture(null);
        }
        SortedMap<String, QuotaAmount> used =
                ledger.used(ns, true).getOrDefault(name, new TreeMap<>());
        ObjectNode status = Json.MAPPER.createObjectNode();
        ObjectNode hard = status.putObject("hard");
        QuotaSpec.desired(quota).hard().forEach((r, amount) -> hard.put(r, amount.toString()));
        ObjectNode usedNode = status.putObject("used");
        used.forEach((r, amount) -> usedNode.put(r, amount.toString()));
        if (status.equals(quota.path("status"))) {
            return CompletableFuture.completedFuture(null);
        }
        ObjectNode updated = quota.deepCopy();
        updated.set("status", status);
        return client.update(quotaType, ns, name, updated, "status");
    }

    private Behavior<Command> onWorked(Worked worked) {
        if (worked.failure() != null && ControllerClient.code(worked.failure()) != 404) {
            getContext()
                    .getLog()
                    .debug(
                            "status of ResourceQuota {} not written, retrying: {}",
                            worked.key(),
                            worked.failure().toString());
            queue.failed(worked.key());
        } else {
            queue.done(worked.key());
        }
        drain();
        return this;
    }
}
