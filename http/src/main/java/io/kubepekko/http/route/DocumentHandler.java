package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.serviceaccount.OpenIdMetadata;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.discovery.Discovery;
import io.kubepekko.api.discovery.DiscoveryDocument;
import io.kubepekko.api.discovery.DiscoveryFormat;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.openapi.Document;
import io.kubepekko.api.openapi.OpenApiV3;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * Serves the documents that describe the server: {@code /version}, discovery (legacy and
 * aggregated, by Accept) and OpenAPI v3, with strong ETags and 304 on a matching {@code
 * If-None-Match}.
 */
public final class DocumentHandler {

    /** The Kubernetes version this server implements. */
    public static final String KUBERNETES_VERSION = "v1.35.0";

    private final byte[] version;
    private final Discovery discovery;
    private final CompletionStage<OpenApiV3> openApi;
    private final Registry registry;
    private final Supplier<Optional<OpenIdMetadata.Served>> issuerDiscovery;

    public DocumentHandler(Registry registry) {
        this(registry, Optional::empty);
    }

    /**
     * A handler that also serves the service-account issuer's OIDC discovery ({@value
     * OpenIdMetadata#CONFIGURATION_PATH} and {@value OpenIdMetadata#JWKS_PATH}) while {@code
     * issuerDiscovery} has them: the secure port's, once it knows its address.
     */
    public DocumentHandler(
            Registry registry, Supplier<Optional<OpenIdMetadata.Served>> issuerDiscovery) {
        this(registry, issuerDiscovery, CompletableFuture.completedFuture(OpenApiV3.of(registry)));
    }

    /**
     * A handler whose OpenAPI documents are {@code openApi}'s once it completes (the server builds
     * them beside its start; a request that comes first waits for them).
     */
    public DocumentHandler(
            Registry registry,
            Supplier<Optional<OpenIdMetadata.Served>> issuerDiscovery,
            CompletionStage<OpenApiV3> openApi) {
        this.registry = registry;
        this.issuerDiscovery = issuerDiscovery;
        this.discovery = Discovery.of(registry);
        this.openApi = openApi;
        ObjectNode v = Json.MAPPER.createObjectNode();
        v.put("major", "1");
        v.put("minor", "35");
        v.put("gitVersion", KUBERNETES_VERSION);
        v.put("gitCommit", "0000000000000000000000000000000000000000");
        v.put("gitTreeState", "clean");
        v.put("buildDate", "2026-11-22T00:00:00Z");
        v.put("goVersion", "go1.25.0");
        v.put("compiler", "gc");
        v.put("platform", "linux/amd64");
        this.version = Json.bytes(v);
    }

    CompletionStage<HttpResponse> handle(
            String path, Query query, HttpRequest request, String accept) {
        String p =
                path.length() > 1 && path.endsWith("/")
                        ? path.substring(0, path.length() - 1)
                        : path;
        if (p.equals(OpenApiV3.ROOT_PATH) || p.startsWith(OpenApiV3.ROOT_PATH + "/")) {
            String ifNoneMatch =
                    request.getHeader("If-None-Match").map(h -> h.value()).orElse(null);
            return openApi.thenApply(o -> openApi(o, p, ifNoneMatch, accept));
        }
        return CompletableFuture.completedFuture(document(p, request, accept));
    }

    private HttpResponse openApi(OpenApiV3 docs, String p, String ifNoneMatch, String accept) {
        if (p.equals(OpenApiV3.ROOT_PATH)) {
            return openApiResponse(docs.root(), ifNoneMatch);
        }
        return docs.groupVersion(p.substring(OpenApiV3.ROOT_PATH.length() + 1))
                .map(d -> openApiResponse(d, ifNoneMatch))
                .orElseGet(() -> notFound(accept));
    }

    private HttpResponse document(String p, HttpRequest request, String accept) {
        String ifNoneMatch = request.getHeader("If-None-Match").map(h -> h.value()).orElse(null);
        if (p.equals("/version")) {
            return Encoder.json(200, version, Negotiation.Format.JSON, false, List.of());
        }
        if (p.equals(OpenIdMetadata.CONFIGURATION_PATH) || p.equals(OpenIdMetadata.JWKS_PATH)) {
            Optional<OpenIdMetadata.Served> served = issuerDiscovery.get();
            if (served.isPresent()) {
                return issuerDocument(served.get(), p.equals(OpenIdMetadata.JWKS_PATH));
            }
        }
        if (p.equals("/api") || p.equals("/apis")) {
            DiscoveryFormat format =
                    DiscoveryFormat.negotiate(accept)
                            .orElseThrow(
                                    () ->
                                            ApiStatus.notAcceptable(
                                                            "only the following media types are accepted: application/json, "
                                                                    + "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
                                                    .exception());
            String host = request.getHeader("Host").map(h -> h.value()).orElse("127.0.0.1");
            DiscoveryDocument doc =
                    p.equals("/api") ? discovery.api(format, host) : discovery.apis(format);
            return discoveryResponse(doc, ifNoneMatch)
                    .addHeader(RawHeader.create("Vary", "Accept"));
        }
        if (p.startsWith("/api/") || p.startsWith("/apis/")) {
            return groupDocument(p, ifNoneMatch).orElseGet(() -> notFound(accept));
        }
        return notFound(accept);
    }

    /**
     * kube's {@code OpenIDMetadataServer}: the JSON with its own media type and a public hour's
     * {@code Cache-Control} instead of the server's usual one.
     */
    private static HttpResponse issuerDocument(OpenIdMetadata.Served served, boolean keySet) {
        String mediaType =
                keySet ? OpenIdMetadata.JWKS_MEDIA_TYPE : OpenIdMetadata.CONFIGURATION_MEDIA_TYPE;
        byte[] body = Json.bytes(keySet ? served.keySet() : served.configuration());
        return HttpResponse.create()
                .withStatus(200)
                .withEntity(ContentTypes.parse(mediaType), body)
                .addHeader(
                        RawHeader.create(
                                "Cache-Control",
                                "public, max-age=" + OpenIdMetadata.MAX_AGE_SECONDS));
    }

    /** {@code /api/v1}, {@code /apis/{group}} and {@code /apis/{group}/{version}}. */
    private Optional<HttpResponse> groupDocument(String p, String ifNoneMatch) {
        String[] parts = p.substring(1).split("/");
        if (parts[0].equals("api") && parts.length == 2) {
            return discovery.resourceList("", parts[1]).map(d -> discoveryResponse(d, ifNoneMatch));
        }
        if (parts[0].equals("apis") && parts.length == 3) {
            return discovery
                    .resourceList(parts[1], parts[2])
                    .map(d -> discoveryResponse(d, ifNoneMatch));
        }
        if (parts[0].equals("apis") && parts.length == 2) {
            return apiGroup(parts[1])
                    .map(g -> Encoder.json(200, g, Negotiation.Format.JSON, false));
        }
        return Optional.empty();
    }

    /** The legacy {@code APIGroup} of one group, taken from the group list. */
    private Optional<JsonNode> apiGroup(String name) {
        JsonNode groups;
        try {
            groups = Json.MAPPER.readTree(discovery.legacyGroups().bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (JsonNode g : groups.path("groups")) {
            if (g.path("name").asText().equals(name)) {
                ObjectNode out = Json.MAPPER.createObjectNode();
                out.put("kind", "APIGroup");
                out.put("apiVersion", "v1");
                out.setAll((ObjectNode) g);
                return Optional.of(out);
            }
        }
        return Optional.empty();
    }

    private static HttpResponse discoveryResponse(DiscoveryDocument doc, String ifNoneMatch) {
        if (ifNoneMatch != null && doc.matches(ifNoneMatch)) {
            return HttpResponse.create()
                    .withStatus(StatusCodes.NOT_MODIFIED)
                    .addHeader(RawHeader.create("ETag", doc.etag()));
        }
        ContentType ct = ContentTypes.parse(doc.contentType());
        return HttpResponse.create()
                .withStatus(200)
                .withEntity(ct, doc.bytes())
                .addHeader(RawHeader.create("ETag", doc.etag()));
    }

    private static HttpResponse openApiResponse(Document doc, String ifNoneMatch) {
        if (ifNoneMatch != null && doc.matchesIfNoneMatch(ifNoneMatch)) {
            return HttpResponse.create()
                    .withStatus(StatusCodes.NOT_MODIFIED)
                    .addHeader(RawHeader.create("ETag", doc.etag()));
        }
        return HttpResponse.create()
                .withStatus(200)
                .withEntity(ContentTypes.APPLICATION_JSON, doc.json())
                .addHeader(RawHeader.create("ETag", doc.etag()));
    }

    HttpResponse notFound(String accept) {
        return Encoder.status(ApiStatus.pathNotFound(), Negotiation.Format.JSON);
    }
}
