package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;

/** Serves the documents that describe the server: {@code /version}, discovery and OpenAPI. */
final class DocumentHandler {

    /** The Kubernetes version this server implements. */
    static final String KUBERNETES_VERSION = "v1.35.0";

    private final byte[] version;

    DocumentHandler() {
        ObjectNode v = Json.MAPPER.createObjectNode();
        v.put("major", "1");
        v.put("minor", "35");
        v.put("gitVersion", KUBERNETES_VERSION);
        v.put("gitCommit", "kubepekko");
        v.put("gitTreeState", "clean");
        v.put("buildDate", "2026-11-22T00:00:00Z");
        v.put("goVersion", "java" + Runtime.version().feature());
        v.put("compiler", "javac");
        v.put("platform", System.getProperty("os.name").toLowerCase() + "/" + System.getProperty("os.arch"));
        this.version = Json.bytes(v);
    }

    HttpResponse handle(String path, Query query, HttpRequest request, String accept) {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        if (p.equals("/version")) {
            return Encoder.json(200, version, Negotiation.Format.JSON, false, java.util.List.of());
        }
        return notFound(accept);
    }

    HttpResponse notFound(String accept) {
        return Encoder.status(ApiStatus.pathNotFound(), Negotiation.Format.JSON);
    }
}
