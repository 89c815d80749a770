package io.kubepekko.actors;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectFilter;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The typed facade the HTTP layer calls: reads and writes of any registered kind, routed to the
 * collection entities and revision sequencers through Cluster Sharding. Failures complete the
 * returned stage with an {@link io.kubepekko.api.status.ApiException}.
 */
public final class ControlPlane {

    /** Namespaces every cluster has from its first start. */
    public static final List<String> SYSTEM_NAMESPACES = List.of("default", "kube-system", "kube-public", "kube-node-lease");

    /** The result of a write: status code, body JSON and warnings. */
    public record WriteResult(int code, byte[] body, List<String> warnings) {}

    /** Objects of a list (JSON each) and the list's resourceVersion. */
    public record ObjectList(List<byte[]> items, long resourceVersion) {}

    private final ActorSystem<?> system;
    private final ClusterSharding sharding;
    private final Registry registry;
    private final ResourceType namespaces;
    private final Duration askTimeout;
    private final LiveNamespaces liveNamespaces = new LiveNamespaces(java.time.Clock.systemUTC(), Duration.ofSeconds(2));

    private ControlPlane(ActorSystem<?> system, Registry registry, Duration askTimeout) {
        this.system = system;
        this.sharding = ClusterSharding.get(system);
        this.registry = registry;
        this.namespaces = registry.find(new GroupResource("", "namespaces")).orElseThrow();
        this.askTimeout = askTimeout;
    }

    /** Starts sharding of the entities on this node and returns the facade. */
    public static ControlPlane start(ActorSystem<?> system, Registry registry, ObjectWrites writes,
                                     Environment environment, Duration askTimeout) {
        ClusterSharding sharding = ClusterSharding.get(system);
        // Revisions is never passivated: collections talk to it directly once they know it.
        sharding.init(Entity.of(Revisions.TYPE_KEY,
                ctx -> Revisions.create(GroupResource.parse(ctx.getEntityId())))
                .withSettings(org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings.create(system)
                        .withNoPassivationStrategy()));
        sharding.init(Entity.of(CollectionEntity.TYPE_KEY, ctx -> {
            CollectionId id = CollectionId.parse(ctx.getEntityId());
            ResourceType type = registry.find(id.groupResource()).orElseThrow();
            return CollectionEntity.create(id, type, writes, environment,
                    sharding.entityRefFor(Revisions.TYPE_KEY, id.groupResource().toString()));
        }));
        return new ControlPlane(system, registry, askTimeout);
    }

    public Registry registry() {
        return registry;
    }

    private EntityRef<CollectionEntity.Command> collection(ResourceType type, String namespace) {
        return sharding.entityRefFor(CollectionEntity.TYPE_KEY,
                new CollectionId(type.groupResource(), type.namespaced() ? namespace : "").entityId());
    }

    private EntityRef<Revisions.Command> revisions(ResourceType type) {
        return sharding.entityRefFor(Revisions.TYPE_KEY, type.groupResource().toString());
    }

    /** The object's JSON at its latest committed state, or empty. */
    public CompletionStage<Optional<byte[]>> get(ResourceType type, String namespace, String name) {
        return Futures.plain(collection(type, namespace)
                .<CollectionEntity.GetReply>ask(r -> new CollectionEntity.Get(name, r), askTimeout))
                .thenApply(reply -> Optional.ofNullable(reply.object()));
    }

    /**
     * Lists one namespace's objects, or all namespaces' when {@code namespace} is null. Selectors are
     * validated here first, so that a bad one answers 400 before any entity is asked.
     */
    public CompletionStage<ObjectList> list(ResourceType type, String namespace, String labelSelector,
                                            String fieldSelector) {
        try {
            ObjectFilter.of(type, labelSelector, fieldSelector);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletionStage<Long> latest = Futures.plain(revisions(type)
                .<Revisions.Latest>ask(Revisions.GetLatest::new, askTimeout))
                .thenApply(Revisions.Latest::resourceVersion);
        CompletionStage<List<String>> namespacesToAsk = namespace != null || !type.namespaced()
                ? CompletableFuture.completedFuture(List.of(namespace == null ? "" : namespace))
                : Futures.plain(revisions(type).<Revisions.Namespaces>ask(Revisions.GetNamespaces::new, askTimeout))
                        .thenApply(Revisions.Namespaces::namespaces);
        return latest.thenCompose(rv -> namespacesToAsk.thenCompose(nss -> {
            List<CompletableFuture<CollectionEntity.Items>> parts = new ArrayList<>();
            for (String ns : nss) {
                parts.add(Futures.plain(collection(type, ns)
                        .<CollectionEntity.Items>ask(r -> new CollectionEntity.ListObjects(labelSelector, fieldSelector, r),
                                askTimeout))
                        .toCompletableFuture());
            }
            return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
                List<byte[]> items = new ArrayList<>();
                for (CompletableFuture<CollectionEntity.Items> p : parts) {
                    items.addAll(p.join().items());
                }
                return new ObjectList(items, rv);
            });
        }));
    }

    /** Executes a write; creates of namespaced objects first check that their namespace exists and is live. */
    public CompletionStage<WriteResult> write(ResourceType type, String namespace, WriteOp op) {
        boolean mayCreate = op instanceof WriteOp.Create || (op instanceof WriteOp.Update && type.allowCreateOnUpdate());
        boolean namespaceWrite = type.groupResource().equals(namespaces.groupResource());
        String namespaceName = namespaceWrite ? op.targetName() : null;
        if (namespaceName != null) {
            liveNamespaces.forget(namespaceName);
        }
        CompletionStage<Void> admitted = type.namespaced() && mayCreate
                ? admitNamespace(namespace, op instanceof WriteOp.Create)
                : CompletableFuture.completedFuture(null);
        CompletionStage<WriteResult> result = admitted.thenCompose(v -> Futures.plain(collection(type, namespace)
                .<CollectionEntity.WriteReply>ask(r -> new CollectionEntity.Write(op, r), askTimeout))
                .thenApply(reply -> {
                    if (reply instanceof CollectionEntity.Refused refused) {
                        throw refused.status().exception();
                    }
                    CollectionEntity.Written w = (CollectionEntity.Written) reply;
                    return new WriteResult(w.code(), w.body(), w.warnings());
                }));
        if (namespaceName != null) {
            // Again once the write is done: an admission that read the namespace before it changed may
            // have marked it live in between.
            result = result.whenComplete((r, e) -> liveNamespaces.forget(namespaceName));
        }
        return result;
    }


    private CompletionStage<Void> admitNamespace(String namespace, boolean strict) {
        if (liveNamespaces.isKnownLive(namespace)) {
            return CompletableFuture.completedFuture(null);
        }
        return get(namespaces, "", namespace).thenApply(found -> {
            if (found.isEmpty()) {
                if (strict) {
                    throw ApiStatus.notFound(namespaces.groupResource(), namespace).exception();
                }
                return null;
            }
            ObjectNode ns = Json.parseTrusted(found.get());
            if (ns.path("metadata").hasNonNull("deletionTimestamp")
                    || "Terminating".equals(ns.path("status").path("phase").asText())) {
                throw ApiStatus.forbidden(namespaces.groupResource(), namespace,
                        "unable to create new content in namespace " + namespace + " because it is being terminated")
                        .exception();
            }
            liveNamespaces.markLive(namespace);
            return null;
        });
    }

    /** Deletes every selected object, one write each; answers the deleted objects. */
    public CompletionStage<ObjectList> deleteCollection(ResourceType type, String namespace, String labelSelector,
                                                        String fieldSelector, Preconditions preconditions,
                                                        WriteOptions options) {
        return list(type, namespace, labelSelector, fieldSelector).thenCompose(listed -> {
            List<CompletableFuture<WriteResult>> deletes = new ArrayList<>();
            for (byte[] item : listed.items()) {
                ObjectNode obj = Json.parseTrusted(item);
                WriteOp op = new WriteOp.Delete(ObjectMeta.name(obj), preconditions, options);
                deletes.add(write(type, ObjectMeta.namespace(obj), op).toCompletableFuture()
                        .exceptionally(e -> null));
            }
            return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).thenApply(v -> {
                List<byte[]> out = new ArrayList<>();
                for (int i = 0; i < deletes.size(); i++) {
                    if (deletes.get(i).join() != null) {
                        out.add(listed.items().get(i));
                    }
                }
                return new ObjectList(out, listed.resourceVersion());
            });
        });
    }

    /** Creates the system namespaces that do not exist yet. */
    public CompletionStage<Void> bootstrap() {
        List<CompletableFuture<?>> creates = new ArrayList<>();
        for (String name : SYSTEM_NAMESPACES) {
            ObjectNode ns = Json.MAPPER.createObjectNode();
            ns.put("apiVersion", "v1").put("kind", "Namespace").putObject("metadata").put("name", name);
            creates.add(write(namespaces, "", new WriteOp.Create(ns, WriteOptions.DEFAULT)).toCompletableFuture()
                    .exceptionally(e -> {
                        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                                ? e.getCause() : e;
                        if (cause instanceof io.kubepekko.api.status.ApiException api
                                && api.status().code() == 409) {
                            return null; // already there from an earlier start
                        }
                        throw new java.util.concurrent.CompletionException(cause);
                    }));
        }
        return CompletableFuture.allOf(creates.toArray(CompletableFuture[]::new));
    }

    public ActorSystem<?> system() {
        return system;
    }
}
