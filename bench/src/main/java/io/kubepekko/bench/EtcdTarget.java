package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * etcd through its v3 JSON gateway ({@code /v3/kv/put}, {@code /v3/kv/range}; etcd 3.4 serves
 * {@code /v3/} and keeps {@code /v3beta/} as a deprecated alias). Keys follow kube-apiserver's
 * layout and values are the same ConfigMap JSON our server receives, so both stores move the same
 * bytes.
 */
final class EtcdTarget implements Target {

    private static final Base64.Encoder B64 = Base64.getEncoder();

    private final URI base;

    EtcdTarget(URI base) {
        this.base = base;
    }

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public HttpConn newConnection() {
        return new HttpConn(base);
    }

    /** etcd has no namespaces: they are only part of the key. */
    @Override
    public boolean ensureNamespace(HttpConn conn, String namespace) {
        return true;
    }

    @Override
    public boolean create(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException {
        return put(conn, ref, object);
    }

    @Override
    public boolean get(HttpConn conn, Workload.Ref ref) throws IOException {
        HttpConn.Response response =
                conn.send(
                        "POST",
                        "/v3/kv/range",
                        ("{\"key\":\"" + key(ref) + "\"}").getBytes(StandardCharsets.US_ASCII));
        // A missing key is a 200 without "kvs"; count it as a failed get.
        return response.ok() && response.text().contains("\"kvs\"");
    }

    @Override
    public boolean update(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException {
        return put(conn, ref, object);
    }

    private static boolean put(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException {
        byte[] body =
                ("{\"key\":\"" + key(ref) + "\",\"value\":\"" + B64.encodeToString(object) + "\"}")
                        .getBytes(StandardCharsets.US_ASCII);
        return conn.send("POST", "/v3/kv/put", body).ok();
    }

    private static String key(Workload.Ref ref) {
        return B64.encodeToString(
                ("/registry/configmaps/" + ref.namespace() + "/" + ref.name())
                        .getBytes(StandardCharsets.UTF_8));
    }
}
