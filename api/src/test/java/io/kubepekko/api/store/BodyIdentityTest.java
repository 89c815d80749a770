package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A write body's name and namespace against its request's, answered as values. */
class BodyIdentityTest {

    @Test
    void aNamespacedBodyWithoutNamespaceTakesTheRequests() {
        ObjectNode body = obj("{'metadata':{'name':'a'}}");
        assertEquals(
                Optional.empty(),
                BodyIdentity.placeInNamespace(type("configmaps"), "ns", body, true));
        assertEquals("ns", body.path("metadata").path("namespace").asText());
    }

    @Test
    void aClusterScopedBodyLosesItsNamespace() {
        ObjectNode body = obj("{'metadata':{'name':'a','namespace':'ns'}}");
        assertEquals(
                Optional.empty(),
                BodyIdentity.placeInNamespace(type("namespaces"), null, body, true));
        assertFalse(body.path("metadata").has("namespace"));
    }

    @Test
    void anotherNamespaceInTheBodyIsRefusedWith400InTheWordsOfCreateOrUpdate() {
        ObjectNode body = obj("{'metadata':{'name':'a','namespace':'other'}}");
        ApiStatus created =
                BodyIdentity.placeInNamespace(type("configmaps"), "ns", body, true).orElseThrow();
        assertEquals(400, created.code());
        assertEquals(
                "the namespace of the provided object does not match the namespace sent on the request",
                created.message());
        ApiStatus updated =
                BodyIdentity.placeInNamespace(type("configmaps"), "ns", body, false).orElseThrow();
        assertEquals(
                "the namespace of the object (other) does not match the namespace on the request (ns)",
                updated.message());
    }

    @Test
    void aBodyNamingAnotherObjectThanTheUrlIsRefusedWith400() {
        ApiStatus s =
                BodyIdentity.namesUrlObject("a", "ns", obj("{'metadata':{'name':'b'}}"))
                        .orElseThrow();
        assertEquals(400, s.code());
        assertEquals("BadRequest", s.reason());
        assertEquals(
                "the name of the object (b) does not match the name on the URL (a)", s.message());
        assertEquals(
                "the name of the object () does not match the name on the URL (a)",
                BodyIdentity.namesUrlObject("a", "ns", obj("{'metadata':{}}"))
                        .orElseThrow()
                        .message());
    }

    @Test
    void aBodyNamingTheUrlObjectInAnotherNamespaceIsRefusedUnlessTheNamespaceIsUnchecked() {
        ObjectNode body = obj("{'metadata':{'name':'a','namespace':'other'}}");
        assertEquals(
                "the namespace of the object (other) does not match the namespace on the request (ns)",
                BodyIdentity.namesUrlObject("a", "ns", body).orElseThrow().message());
        assertEquals(Optional.empty(), BodyIdentity.namesUrlObject("a", null, body));
        assertEquals(
                Optional.empty(),
                BodyIdentity.namesUrlObject("a", "ns", obj("{'metadata':{'name':'a'}}")));
    }
}
