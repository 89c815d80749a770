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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's {@code rbac/bootstrap-roles} post-start hook: every bootstrap ClusterRole,
 * ClusterRoleBinding, and Role and RoleBinding of kube-system and kube-public ({@link
 * BootstrapPolicy}) is created when missing and reconciled when present ({@link
 * BootstrapReconciliation}). The namespaces exist by then: the start creates them first. Each
 * object is read, decided on and written on its own; a write refused with 409 (another server of
 * the cluster created or updated it first) or 404 (it went away meanwhile) starts that object over
 * from a fresh read, a few times, as kube's reconcile does. Several servers starting at once
 * therefore converge on the same objects.
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
        ResourceType clusterRoles = bootstrap.type("clusterroles");
        ResourceType clusterRoleBindings = bootstrap.type("clusterrolebindings");
        ResourceType roles = bootstrap.type("roles");
        ResourceType roleBindings = bootstrap.type("rolebindings");
        BootstrapPolicy policy = BootstrapPolicy.defaults();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        // Roles first: a binding to a role not there yet would grant nothing for a moment.
        for (ObjectNode role : policy.clusterRoles()) {
            all.add(bootstrap.one(clusterRoles, role, BootstrapReconciliation::clusterRole, 1));
        }
        for (ObjectNode role : policy.roles()) {
            all.add(bootstrap.one(roles, role, BootstrapReconciliation::role, 1));
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenCompose(
                        v -> {
                            List<CompletableFuture<Void>> more = new ArrayList<>();
                            for (ObjectNode binding : policy.clusterRoleBindings()) {
                                more.add(
                                        bootstrap.one(
                                                clusterRoleBindings,
                                                binding,
                                                BootstrapReconciliation::clusterRoleBinding,
                                                1));
                            }
                            for (ObjectNode binding : policy.roleBindings()) {
                                more.add(
                                        bootstrap.one(
                                                roleBindings,
                                                binding,
                                                BootstrapReconciliation::roleBinding,
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
        String namespace = Objects.requireNonNullElse(ObjectMeta.namespace(expected), "");
        return controlPlane
                .get(type, namespace, name)
                .toCompletableFuture()
                .thenCompose(
                        found -> {
                            Action action =
                                    decide.apply(
                                            expected, found.map(Json::parseTrusted).orElse(null));
                            return write(type, namespace, name, action)
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
    private CompletableFuture<ApiStatus> write(
            ResourceType type, String namespace, String name, Action action) {
        if (action instanceof BootstrapReconciliation.Create c) {
            return send(type, namespace, new WriteOp.Create(c.object(), OPTIONS));
        }
        if (action instanceof BootstrapReconciliation.Update u) {
            return send(type, namespace, new WriteOp.Update(name, u.object(), null, OPTIONS));
        }
        if (action instanceof BootstrapReconciliation.Recreate r) {
            return recreate(type, namespace, name, r.object());
        }
        return CompletableFuture.completedFuture(null); // unchanged or protected
    }

    /** A binding's roleRef cannot change: delete the stored one (that very one) and create. */
    private CompletableFuture<ApiStatus> recreate(
            ResourceType type, String namespace, String name, ObjectNode obj) {
        return controlPlane
                .get(type, namespace, name)
                .toCompletableFuture()
                .thenCompose(
                        found -> {
                            if (found.isEmpty()) {
                                return send(type, namespace, new WriteOp.Create(obj, OPTIONS));
                            }
                            String uid = ObjectMeta.uid(Json.parseTrusted(found.get()));
                            WriteOp delete =
                                    new WriteOp.Delete(name, new Preconditions(uid, null), OPTIONS);
                            return send(type, namespace, delete)
                                    .thenCompose(
                                            refused ->
                                                    refused != null
                                                            ? CompletableFuture.completedFuture(
                                                                    refused)
                                                            : send(
                                                                    type,
                                                                    namespace,
                                                                    new WriteOp.Create(
                                                                            obj, OPTIONS)));
                        });
    }

    private static final WriteOptions OPTIONS = WriteOptions.DEFAULT;

    private CompletableFuture<ApiStatus> send(ResourceType type, String namespace, WriteOp op) {
        return controlPlane
                .write(type, namespace, op)
                .toCompletableFuture()
                .thenApply(
                        result ->
                                result instanceof WriteResult.Refused refused
                                        ? refused.status()
                                        : null);
    }
}
