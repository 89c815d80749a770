package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** Our API server, driven through the Kubernetes REST paths for namespaces and ConfigMaps. */
final class KubeTarget implements Target {

  private final URI base;

  KubeTarget(URI base) {
    this.base = base;
  }

  @Override
  public String name() {
    return "ours";
  }

  @Override
  public HttpConn newConnection() {
    return new HttpConn(base);
  }

  @Override
  public boolean ensureNamespace(HttpConn conn, String namespace) throws IOException {
    byte[] body = ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + namespace + "\"}}").getBytes(StandardCharsets.UTF_8);
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

  /** Sent without resourceVersion: an unconditional update, as Kubernetes allows for ConfigMaps. */
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
