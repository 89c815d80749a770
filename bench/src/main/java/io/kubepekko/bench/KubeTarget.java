package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our API server, driven through the Kubernetes REST paths for namespaces and ConfigMaps. Given
 * several servers (the nodes of one cluster), each new connection goes to the next of them in turn,
 * as behind a plain TCP load balancer.
 */
final class KubeTarget implements Target {

    private final List<URI> bases;
    private final AtomicInteger next = new AtomicInteger();

    KubeTarget(URI base) {
        this(List.of(base));
    }

    KubeTarget(List<URI> bases) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("no server to target");
        }
        this.bases = List.copyOf(bases);
    }

    @Override
    public String name() {
        return "ours";
    }

    @Override
    public HttpConn newConnection() {
        return new HttpConn(bases.get(Math.floorMod(next.getAndIncrement(), bases.size())));
    }

    @Override
    public boolean ensureNamespace(HttpConn conn, String namespace) throws IOException {
        byte[] body =
                ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                                + namespace
                                + "\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        int status = conn.send("POST", "/api/v1/namespaces", body).status();
        return status == 201 || status == 409;
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
