package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our API server, driven through the Kubernetes REST paths for namespaces and ConfigMaps. Given
 * several servers (the nodes of one cluster), each new connection goes to the next of them in turn,
 * as behind a plain TCP load balancer.
 *
 * <p>Normally every request goes as the endpoints' identity (the admin kubeconfig's, which is in
 * {@code system:masters} and so never reaches RBAC). {@link #boundUser} measures a user whom only
 * RBAC authorizes instead: the namespaces and the user's RoleBindings are made as the admin, every
 * other request as the user.
 */
final class KubeTarget implements Target {

    /** The RoleBinding {@link #boundUser} gets in each namespace. */
    static final String BINDING = "bench-edit";

    /** The ClusterRole it binds: kube's bootstrap role for reading and writing a namespace. */
    static final String ROLE = "edit";

    private static final Duration BINDING_TIMEOUT = Duration.ofSeconds(30);
    private static final long BINDING_POLL_MILLIS = 20;

    private final List<Endpoint> servers;
    private final AtomicInteger next = new AtomicInteger();

    /** For namespaces and bindings when measuring as {@link #user}; null otherwise. */
    private final Endpoint admin;

    private final String user;

    KubeTarget(Endpoint server) {
        this(List.of(server));
    }

    KubeTarget(List<Endpoint> servers) {
        this(servers, null, null);
    }

    private KubeTarget(List<Endpoint> servers, Endpoint admin, String user) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("no server to target");
        }
        this.servers = List.copyOf(servers);
        this.admin = admin;
        this.user = user;
    }

    /**
     * Requests as {@code user} through {@code asUser} (its client certificate), authorized by a
     * RoleBinding to ClusterRole {@value #ROLE} in each namespace, which {@code admin} creates with
     * the namespace.
     */
    static KubeTarget boundUser(Endpoint admin, Endpoint asUser, String user) {
        return new KubeTarget(List.of(asUser), admin, user);
    }

    @Override
    public String name() {
        return "ours";
    }

    @Override
    public HttpConn newConnection() {
        return new HttpConn(servers.get(Math.floorMod(next.getAndIncrement(), servers.size())));
    }

    @Override
    public boolean ensureNamespace(HttpConn conn, String namespace) throws IOException {
        if (user == null) {
            return createNamespace(conn, namespace);
        }
        try (HttpConn asAdmin = new HttpConn(admin)) {
            if (!createNamespace(asAdmin, namespace)) {
                return false;
            }
            int status =
                    asAdmin.send(
                                    "POST",
                                    "/apis/rbac.authorization.k8s.io/v1/namespaces/"
                                            + namespace
                                            + "/rolebindings",
                                    roleBinding(namespace))
                            .status();
            if (status != 201 && status != 409) {
                return false;
            }
        }
        return awaitAuthorized(conn, namespace);
    }

    private static boolean createNamespace(HttpConn conn, String namespace) throws IOException {
        byte[] body =
                ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                                + namespace
                                + "\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        int status = conn.send("POST", "/api/v1/namespaces", body).status();
        return status == 201 || status == 409;
    }

    private byte[] roleBinding(String namespace) {
        return ("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                        + "\"metadata\":{\"name\":\""
                        + BINDING
                        + "\",\"namespace\":\""
                        + namespace
                        + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"ClusterRole\",\"name\":\""
                        + ROLE
                        + "\"},\"subjects\":[{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"User\",\"name\":\""
                        + user
                        + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Until the user may list the namespace's ConfigMaps: the authorizer learns of a new binding
     * through its watch, a moment after the create was answered.
     */
    private static boolean awaitAuthorized(HttpConn asUser, String namespace) throws IOException {
        long deadline = System.nanoTime() + BINDING_TIMEOUT.toNanos();
        String path = "/api/v1/namespaces/" + namespace + "/configmaps?limit=1";
        while (true) {
            int status = asUser.get(path).status();
            if (status == 200) {
                return true;
            }
            if (status != 403 || System.nanoTime() > deadline) {
                return false;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(BINDING_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    @Override
    public boolean create(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException {
        return conn.send("POST", collection(ref), object).status() == 201;
    }

    @Override
    public boolean get(HttpConn conn, Workload.Ref ref) throws IOException {
        return conn.get(item(ref)).status() == 200;
    }

    /**
     * Sent without resourceVersion: an unconditional update, as Kubernetes allows for ConfigMaps.
     */
    @Override
    public boolean update(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException {
        return conn.send("PUT", item(ref), object).status() == 200;
    }

    private static String collection(Workload.Ref ref) {
        return "/api/v1/namespaces/" + ref.namespace() + "/configmaps";
    }

    private static String item(Workload.Ref ref) {
        return collection(ref) + "/" + ref.name();
    }
}
