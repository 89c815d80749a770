package io.kubepekko.actors.plane;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.failover.StrandedAsks;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.namespace.NamespaceLifecycle;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.watch.ReadOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The writes behind {@link ControlPlane}: one write, with the namespace lifecycle's admission of
 * creates; a delete of a collection; the system namespaces' creation at start.
 */
final class Writes {

    private final Reads reads;
    private final EntityShards shards;
    private final StrandedAsks stranded;
    private final Duration askTimeout;
    private final ResourceType namespaces;
    private final LiveNamespaces liveNamespaces =
            new LiveNamespaces(Clock.systemUTC(), Duration.ofSeconds(2));

    Writes(
            Reads reads,
            EntityShards shards,
            StrandedAsks stranded,
            Duration askTimeout,
            ResourceType namespaces) {
        this.reads = reads;
        this.shards = shards;
        this.stranded = stranded;
        this.askTimeout = askTimeout;
        this.namespaces = namespaces;
    }

    /**
     * @param user who sends the write, admitted by the collection; null for the server's own
     */
    CompletionStage<WriteResult> write(
            ResourceType type, String namespace, WriteOp op, UserInfo user) {
        boolean namespaceWrite = type.groupResource().equals(namespaces.groupResource());
        String namespaceName = namespaceWrite ? op.targetName() : null;
        if (namespaceName != null) {
            liveNamespaces.forget(namespaceName);
        }
        CompletionStage<Optional<ApiStatus>> admitted =
                !type.namespaced()
                        ? ADMITTED
                        : switch (op.creation(type)) {
                            case YES ->
                                    admitNamespace(
                                            op.addressed(type), op.targetName(), namespace, true);
                            case ON_UPDATE ->
                                    admitNamespace(
                                            op.addressed(type), op.targetName(), namespace, false);
                            case WHEN_ABSENT ->
                                    reads.get(type, namespace, op.targetName())
                                            .thenCompose(
                                                    found ->
                                                            found.isPresent()
                                                                    ? ADMITTED
                                                                    : admitNamespace(
                                                                            op.addressed(type),
                                                                            op.targetName(),
                                                                            namespace,
                                                                            true));
                            case NO -> ADMITTED;
                        };
        CompletionStage<WriteResult> result =
                admitted.thenCompose(
                        refusal ->
                                refusal.isPresent()
                                        ? CompletableFuture.completedFuture(
                                                new WriteResult.Refused(refusal.get()))
                                        : stranded.write(
                                                () ->
                                                        shards.collection(type, namespace)
                                                                .<WriteResult>ask(
                                                                        r ->
                                                                                new CollectionProtocol
                                                                                        .Write(
                                                                                        op, user,
                                                                                        r),
                                                                        askTimeout)));
        if (namespaceName != null) {
            // Again once the write is done: an admission that read the namespace before it changed
            // may have marked it live in between.
            result = result.whenComplete((r, e) -> liveNamespaces.forget(namespaceName));
        }
        return result;
    }

    private static final CompletionStage<Optional<ApiStatus>> ADMITTED =
            CompletableFuture.completedFuture(Optional.empty());

    /**
     * NamespaceLifecycle admission ({@link NamespaceLifecycle#admit}) of a write that may create
     * {@code name} of {@code type}: its refusal, or empty when the write may go on; {@code strict}:
     * the write certainly creates, so a missing namespace is 404.
     */
    CompletionStage<Optional<ApiStatus>> admitNamespace(
            GroupResource resource, String name, String namespace, boolean strict) {
        if (liveNamespaces.isKnownLive(namespace)) {
            return ADMITTED;
        }
        return reads.get(namespaces, "", namespace)
                .thenApply(
                        found -> {
                            NamespaceLifecycle.Admission admission =
                                    NamespaceLifecycle.admit(
                                            resource,
                                            name,
                                            namespace,
                                            found.map(Json::parseTrusted),
                                            strict);
                            if (admission instanceof NamespaceLifecycle.Admission.Refused refused) {
                                return Optional.of(refused.status());
                            }
                            if (admission instanceof NamespaceLifecycle.Admission.Live) {
                                liveNamespaces.markLive(namespace);
                            }
                            return Optional.<ApiStatus>empty();
                        });
    }

    CompletionStage<ControlPlane.CollectionDeletion> deleteCollection(
            ResourceType type,
            String namespace,
            ReadOptions selection,
            DeletionOptions deletion,
            UserInfo user) {
        return deleteCollection(type, namespace, selection, deletion, user, null);
    }

    /**
     * @param around makes each item's delete (null: the plain write)
     */
    CompletionStage<ControlPlane.CollectionDeletion> deleteCollection(
            ResourceType type,
            String namespace,
            ReadOptions selection,
            DeletionOptions deletion,
            UserInfo user,
            ControlPlane.ItemDelete around) {
        return reads.list(type, namespace, selection.forDeleteCollection())
                .thenCompose(
                        listed -> {
                            List<CompletableFuture<Optional<ApiStatus>>> deletes =
                                    new ArrayList<>();
                            for (byte[] item : listed.items()) {
                                ObjectNode obj = Json.parseTrusted(item);
                                WriteOp.Delete op =
                                        WriteOp.Delete.of(ObjectMeta.name(obj), deletion);
                                String ns = ObjectMeta.namespace(obj);
                                CompletionStage<WriteResult> deleted =
                                        around == null
                                                ? write(type, ns, op, user)
                                                : around.delete(item, op);
                                // Each delete's answer (the object again) is dropped when it
                                // arrives: the response is the listed items, and holding every
                                // answer until the last one would copy the collection.
                                deletes.add(
                                        deleted.toCompletableFuture()
                                                .thenApply(written -> refusal(written, 404)));
                            }
                            return CompletableFuture.allOf(
                                            deletes.toArray(CompletableFuture[]::new))
                                    .thenApply(
                                            v ->
                                                    deletionOf(
                                                            deletes,
                                                            new ControlPlane.ObjectList(
                                                                    listed.items(),
                                                                    listed.resourceVersion())));
                        });
    }

    /** The listed objects, or the first refusal in list order: it answers the whole request. */
    private static ControlPlane.CollectionDeletion deletionOf(
            List<CompletableFuture<Optional<ApiStatus>>> deletes, ControlPlane.ObjectList listed) {
        for (CompletableFuture<Optional<ApiStatus>> d : deletes) {
            Optional<ApiStatus> refused = d.join();
            if (refused.isPresent()) {
                return new ControlPlane.CollectionDeletion.Refused(refused.get());
            }
        }
        return new ControlPlane.CollectionDeletion.Deleted(listed);
    }

    /**
     * The Status of a refused {@code result}, unless refused with {@code tolerated} (a delete of a
     * collection that found an object gone, a bootstrap that found its namespace there).
     */
    private static Optional<ApiStatus> refusal(WriteResult result, int tolerated) {
        if (result instanceof WriteResult.Refused refused && refused.status().code() != tolerated) {
            return Optional.of(refused.status());
        }
        return Optional.empty();
    }

    /**
     * Nothing when a bootstrap create succeeded or found its object there; any other refusal fails
     * the start-up step, which its caller retries (not a request: nobody reads a value).
     */
    private static Void createdOrThere(WriteResult result) {
        refusal(result, 409)
                .ifPresent(
                        status -> {
                            throw status.exception();
                        });
        return null;
    }

    CompletionStage<Void> bootstrap() {
        List<CompletableFuture<?>> creates = new ArrayList<>();
        for (ObjectNode ns : NamespaceLifecycle.systemNamespaces()) {
            // 409: already there from an earlier start.
            creates.add(
                    write(namespaces, "", new WriteOp.Create(ns, WriteOptions.DEFAULT), null)
                            .toCompletableFuture()
                            .thenApply(Writes::createdOrThere));
        }
        return CompletableFuture.allOf(creates.toArray(CompletableFuture[]::new));
    }
}
