package io.kubepekko.http.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.status.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Accept header, entry by entry in the client's order, for kinds with and without a protobuf
 * form.
 */
class NegotiationTest {

    @Test
    void protobufIsChosenForKindsThatHaveItAndTheFallbackForOthers() {
        Negotiation.Representation typed =
                Negotiation.representation("application/vnd.kubernetes.protobuf, application/json");
        assertEquals(Negotiation.Format.PROTOBUF, typed.forKind(true).format());
        assertEquals(
                Negotiation.Format.JSON,
                typed.forKind(false).format(),
                "a custom resource gets JSON");
    }

    @Test
    void protobufAloneForAKindWithoutItIsNotAcceptable() {
        Negotiation.Representation only =
                Negotiation.representation("application/vnd.kubernetes.protobuf");
        assertNull(only.fallback());
        ApiException e = assertThrows(ApiException.class, () -> only.forKind(false));
        assertEquals(406, e.status().code());
    }

    @Test
    void theClientsOrderWins() {
        assertEquals(
                Negotiation.Format.JSON,
                Negotiation.representation("application/json, application/vnd.kubernetes.protobuf")
                        .format());
        Negotiation.Representation table =
                Negotiation.representation(
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
    @ValueSource(
            strings = {
                "",
                " ",
                "application/json, \u00fc/\u00fc",
                ";;;, application/json",
                "application/json;;;"
            })
    void emptyAndUnreadableRangesBesideJsonGiveJson(String accept) {
        assertEquals(Negotiation.Format.JSON, Negotiation.representation(accept).format());
    }

    @Test
    void thePartialKindsAreServedInEveryEncodingAndVersionOfMetaOnly() {
        Negotiation.Representation protobuf =
                Negotiation.representation(
                        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json");
        assertEquals(
                Negotiation.Format.PROTOBUF,
                protobuf.forKind(false).format(),
                "a meta kind: protobuf for every kind");
        assertEquals("PartialObjectMetadataList", protobuf.partial());
        Negotiation.Representation beta =
                Negotiation.representation(
                        "application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1");
        assertEquals(Negotiation.Format.YAML, beta.format());
        assertEquals("v1beta1", beta.metaVersion());
        assertNull(
                Negotiation.representation(
                                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1alpha1, "
                                        + "application/json")
                        .partial());
        assertNull(
                Negotiation.representation("application/json;g=meta.k8s.io;v=v1, application/yaml")
                        .partial());
        assertEquals(
                Negotiation.Format.YAML,
                Negotiation.representation("application/json;g=meta.k8s.io;v=v1, application/yaml")
                        .format());
    }

    @Test
    void aStatusIsEncodedAsTheFirstEntryWithoutTransformationElseJson() {
        assertEquals(
                Negotiation.Format.JSON,
                Negotiation.objectFormat(
                        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"));
        assertEquals(
                Negotiation.Format.JSON,
                Negotiation.objectFormat("application/yaml;as=Table;g=meta.k8s.io;v=v1"));
        assertEquals(
                Negotiation.Format.YAML,
                Negotiation.objectFormat(
                        "application/json;as=Table;g=meta.k8s.io;v=v1, application/yaml"));
        assertEquals(
                Negotiation.Format.PROTOBUF,
                Negotiation.objectFormat(
                        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, "
                                + "application/vnd.kubernetes.protobuf, application/json"));
        assertEquals(Negotiation.Format.JSON, Negotiation.objectFormat("text/html"));
    }
}
