package io.kubepekko.actors.plane;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.rbac.BootstrapPolicy;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Action;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's {@code rbac/bootstrap-roles} post-start hook: every bootstrap ClusterRole and
 * ClusterRoleBinding ({@link BootstrapPolicy}) is created when missing and reconciled when present
 * ({@link BootstrapReconciliation}). Each object is read, decided on and written on its own; a
 * write refused with 409 (another server of the cluster created or updated it first) or 404 (it
 * went away meanwhile) starts that object over from a fresh read, a few times, as kube's reconcile
 * does. Several servers starting at once therefore converge on the same objects.
 */
final class RbacBootstrap {

    /** Reads, decisions and writes one object gets before the start gives up (and is retried). */
    private static final int ATTEMPTS = 5;

    private static final Logger log = LoggerFactory.getLogger(RbacBootstrap.class);

    private static final String RBAC = "rbac.authorization.k8s.io";

    private final ControlPlane controlPlane;
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger updated = new AtomicInteger();
    private final AtomicInteger kept = new AtomicInteger();

    private RbacBootstrap(ControlPlane controlPlane) {
        this.controlPlane = controlPlane;
    }

    /** Completes when every bootstrap object is reconciled; fails with the first refusal kept. */
    static CompletionStage<Void> reconcile(ControlPlane controlPlane) {
        long started = System.nanoTime();
        RbacBootstrap bootstrap = new RbacBootstrap(controlPlane);
        ResourceType roles = bootstrap.type("clusterroles");
        ResourceType bindings = bootstrap.type("clusterrolebindings");
        BootstrapPolicy policy = BootstrapPolicy.defaults();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        // Roles first: a binding to a role not there yet would grant nothing for a moment.
        for (ObjectNode role : policy.clusterRoles()) {
            all.add(bootstrap.one(roles, role, BootstrapReconciliation::clusterRole, 1));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenCompose(
                        v -> {
                            List<CompletableFuture<Void>> more = new ArrayList<>();
                            for (ObjectNode binding : policy.clusterRoleBindings()) {
                                more.add(
                                        bootstrap.one(
                                                bindings,
                                                binding,
                                                BootstrapReconciliation::clusterRoleBinding,
                                                1));
                            }
                            return CompletableFuture.allOf(more.toArray(CompletableFuture[]::new));
                        })
                .thenRun(
                        () ->
                                log.info(
                                        "RBAC bootstrap roles and bindings reconciled in {} ms: {} created, {} updated, {} left alone (autoupdate \"false\")",
                                        (System.nanoTime() - started) / 1_000_000,
                                        bootstrap.created.get(),
                                        bootstrap.updated.get(),
                                        bootstrap.kept.get()));
    }

    private ResourceType type(String resource) {
        return controlPlane
                .registry()
                .find(new GroupResource(RBAC, resource))
                .orElseThrow(() -> new IllegalStateException(resource + " are not served"));
    }

    private CompletableFuture<Void> one(
            ResourceType type,
            ObjectNode expected,
            BiFunction<ObjectNode, ObjectNode, Action> decide,
            int attempt) {
        String name = ObjectMeta.name(expected);
        return controlPlane
                .get(type, "", name)
                .toCompletableFuture()
                .thenCompose(
                        found -> {
                            Action action =
                                    decide.apply(
                                            expected, found.map(Json::parseTrusted).orElse(null));
                            return write(type, name, action)
                                    .thenCompose(
                                            refused -> {
                                                if (refused == null) {
                                                    count(action);
                                                    return CompletableFuture.completedFuture(null);
                                                }
                                                int code = refused.code();
                                                if ((code == 409 || code == 404)
                                                        && attempt < ATTEMPTS) {
                                                    return one(type, expected, decide, attempt + 1);
                                                }
                                                throw refused.exception();
                                            });
                        });
    }

    private void count(Action action) {
        if (action instanceof BootstrapReconciliation.Create) {
            created.incrementAndGet();
        } else if (action instanceof BootstrapReconciliation.Protected) {
            kept.incrementAndGet();
        } else if (!(action instanceof BootstrapReconciliation.Unchanged)) {
            updated.incrementAndGet();
        }
    }

    /** Writes what {@code action} says; the refusal's Status, or null when it succeeded. */
    private CompletableFuture<ApiStatus> write(ResourceType type, String name, Action action) {
        if (action instanceof BootstrapReconciliation.Create c) {
            return send(type, new WriteOp.Create(c.object(), OPTIONS));
        }
        if (action instanceof BootstrapReconciliation.Update u) {
            return send(type, new WriteOp.Update(name, u.object(), null, OPTIONS));
        }
        if (action instanceof BootstrapReconciliation.Recreate r) {
            return recreate(type, name, r.object());
        }
        return CompletableFuture.completedFuture(null); // unchanged or protected
    }

    /** A binding's roleRef cannot change: delete the stored one (that very one) and create. */
    private CompletableFuture<ApiStatus> recreate(ResourceType type, String name, ObjectNode obj) {
        return controlPlane
                .get(type, "", name)
                .toCompletableFuture()
                .thenCompose(
                        found -> {
                            if (found.isEmpty()) {
                                return send(type, new WriteOp.Create(obj, OPTIONS));
                            }
                            String uid = ObjectMeta.uid(Json.parseTrusted(found.get()));
                            WriteOp delete =
                                    new WriteOp.Delete(name, new Preconditions(uid, null), OPTIONS);
                            return send(type, delete)
                                    .thenCompose(
                                            refused ->
                                                    refused != null
                                                            ? CompletableFuture.completedFuture(
                                                                    refused)
                                                            : send(
                                                                    type,
                                                                    new WriteOp.Create(
                                                                            obj, OPTIONS)));
                        });
    }

    private static final WriteOptions OPTIONS = WriteOptions.DEFAULT;

    private CompletableFuture<ApiStatus> send(ResourceType type, WriteOp op) {
        return controlPlane
                .write(type, "", op)
                .toCompletableFuture()
                .thenApply(
                        result ->
                                result instanceof WriteResult.Refused refused
                                        ? refused.status()
                                        : null);
    }
}
