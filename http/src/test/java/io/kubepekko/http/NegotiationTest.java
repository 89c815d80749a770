package io.kubepekko.http;

import io.kubepekko.api.status.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Accept header, entry by entry in the client's order, for kinds with and without a protobuf form. */
class NegotiationTest {

    @Test
    void protobufIsChosenForKindsThatHaveItAndTheFallbackForOthers() {
        Negotiation.Representation typed = Negotiation.representation(
                "application/vnd.kubernetes.protobuf, application/json");
        assertEquals(Negotiation.Format.PROTOBUF, typed.forKind(true).format());
        assertEquals(Negotiation.Format.JSON, typed.forKind(false).format(), "a custom resource gets JSON");
    }

    @Test
    void protobufAloneForAKindWithoutItIsNotAcceptable() {
        Negotiation.Representation only = Negotiation.representation("application/vnd.kubernetes.protobuf");
        assertNull(only.fallback());
        ApiException e = assertThrows(ApiException.class, () -> only.forKind(false));
        assertEquals(406, e.status().code());
    }

    @Test
    void theClientsOrderWins() {
        assertEquals(Negotiation.Format.JSON,
                Negotiation.representation("application/json, application/vnd.kubernetes.protobuf").format());
        Negotiation.Representation table = Negotiation.representation(
                "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, "
                        + "application/json;as=Table;v=v1;g=meta.k8s.io, application/json");
        assertTrue(table.table(), "a protobuf Table is not served: the JSON Table after it is");
        assertEquals(Negotiation.Format.JSON, table.format());
    }

    @ParameterizedTest(name = "Accept: \"{0}\"")
    @ValueSource(strings = {";;;", ",", ";", " , ; ", ";q=1", ",,"})
    void aHeaderWithoutAMediaRangeIsNotAcceptable(String accept) {
        ApiException e = assertThrows(ApiException.class, () -> Negotiation.representation(accept));
        assertEquals(406, e.status().code());
    }

    @ParameterizedTest(name = "Accept: \"{0}\"")
    @ValueSource(strings = {"", " ", "application/json, \u00fc/\u00fc", ";;;, application/json", "application/json;;;"})
    void emptyAndUnreadableRangesBesideJsonGiveJson(String accept) {
        assertEquals(Negotiation.Format.JSON, Negotiation.representation(accept).format());
    }
}
