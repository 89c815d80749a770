package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.openapi.OpenApiV3;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;
import org.junit.jupiter.api.Test;

/** The documents a server builds beside its start: asked for first, they are waited for. */
class DocumentHandlerTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static HttpResponse answer(CompletionStage<HttpResponse> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static CompletionStage<HttpResponse> get(DocumentHandler handler, String path) {
        return handler.handle(path, Query.EMPTY, HttpRequest.GET(path), "application/json");
    }

    @Test
    void anOpenApiRequestBeforeTheDocumentsAreBuiltIsAnsweredOnceTheyAre() throws Exception {
        CompletableFuture<OpenApiV3> building = new CompletableFuture<>();
        DocumentHandler handler = new DocumentHandler(REGISTRY, Optional::empty, building);

        CompletionStage<HttpResponse> root = get(handler, OpenApiV3.ROOT_PATH);
        CompletionStage<HttpResponse> core = get(handler, OpenApiV3.ROOT_PATH + "/api/v1");
        CompletionStage<HttpResponse> unknown = get(handler, OpenApiV3.ROOT_PATH + "/apis/no/v1");
        assertFalse(root.toCompletableFuture().isDone());
        assertFalse(core.toCompletableFuture().isDone());

        building.complete(OpenApiV3.of(REGISTRY));
        assertEquals(200, answer(root).status().intValue());
        assertEquals(200, answer(core).status().intValue());
        assertEquals(404, answer(unknown).status().intValue());
    }

    @Test
    void theOtherDocumentsDoNotWaitForTheOpenApiOnes() throws Exception {
        DocumentHandler handler =
                new DocumentHandler(REGISTRY, Optional::empty, new CompletableFuture<>());
        for (String path : new String[] {"/version", "/api", "/apis", "/api/v1", "/nothing"}) {
            CompletionStage<HttpResponse> answer = get(handler, path);
            assertTrue(answer.toCompletableFuture().isDone(), path);
        }
        assertEquals(200, answer(get(handler, "/version")).status().intValue());
        assertEquals(404, answer(get(handler, "/nothing")).status().intValue());
    }
}
