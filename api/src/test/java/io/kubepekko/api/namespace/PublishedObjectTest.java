package io.kubepekko.api.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import org.junit.jupiter.api.Test;

/**
 * What kube's serviceaccounts controller and root CA publisher keep in each namespace: a bare
 * {@code default} account never rewritten, and {@code kube-root-ca.crt} with exactly the CA and
 * kube's description, rewritten (other annotations kept) when its data differ or the annotation is
 * empty; only active namespaces get either.
 */
class PublishedObjectTest {

    private static final String CA =
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    private static final String DESCRIPTION =
            "Contains a CA bundle that can be used to verify the kube-apiserver when using internal"
                    + " endpoints such as the internal service IP or kubernetes.default.svc. No other"
                    + " usage is guaranteed across distributions of Kubernetes clusters.";

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    @Test
    void theDefaultAccountIsBareAndNeverRewritten() {
        DefaultServiceAccount sa = new DefaultServiceAccount();
        assertEquals(
                obj("{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'default'}}"),
                sa.created());
        assertFalse(
                sa.corrected(
                                obj(
                                        "{'metadata':{'name':'default'},'automountServiceAccountToken':false}"))
                        .isPresent());
    }

    @Test
    void theRootCaConfigMapCarriesTheCaAndKubesDescription() {
        ObjectNode created = new RootCaConfigMap(CA).created();
        assertEquals("kube-root-ca.crt", created.at("/metadata/name").asText());
        assertEquals(CA, created.at("/data/ca.crt").asText());
        assertEquals(1, created.path("data").size());
        assertEquals(
                DESCRIPTION,
                created.at("/metadata/annotations").path("kubernetes.io/description").asText());
    }

    @Test
    void aConfigMapAsPublishedIsLeftAlone() {
        RootCaConfigMap publisher = new RootCaConfigMap(CA);
        ObjectNode existing = publisher.created();
        ((ObjectNode) existing.get("metadata")).put("resourceVersion", "7");
        existing.putObject("binaryData").put("other", "AAAA");
        assertFalse(publisher.corrected(existing).isPresent());
    }

    @Test
    void changedDataOrAMissingDescriptionIsWrittenBackKeepingTheRest() {
        RootCaConfigMap publisher = new RootCaConfigMap(CA);
        ObjectNode tampered =
                obj(
                        "{'metadata':{'name':'kube-root-ca.crt','resourceVersion':'9',"
                                + "'labels':{'l':'1'},'annotations':{'mine':'x',"
                                + "'kubernetes.io/description':'desc'}},"
                                + "'data':{'ca.crt':'old','extra':'y'}}");
        ObjectNode fixed = publisher.corrected(tampered).orElseThrow();
        assertEquals(1, fixed.path("data").size());
        assertEquals(CA, fixed.at("/data/ca.crt").asText());
        assertEquals("9", fixed.at("/metadata/resourceVersion").asText());
        assertEquals("1", fixed.at("/metadata/labels/l").asText());
        assertEquals("x", fixed.at("/metadata/annotations/mine").asText());
        assertEquals(
                DESCRIPTION,
                fixed.at("/metadata/annotations").path("kubernetes.io/description").asText());
        assertEquals("old", tampered.at("/data/ca.crt").asText());

        ObjectNode undescribed = publisher.created();
        ((ObjectNode) undescribed.get("metadata")).remove("annotations");
        assertEquals(
                DESCRIPTION,
                publisher
                        .corrected(undescribed)
                        .orElseThrow()
                        .at("/metadata/annotations")
                        .path("kubernetes.io/description")
                        .asText());
    }

    @Test
    void onlyActiveNamespacesGetThem() {
        assertTrue(
                PublishedObject.active(
                        obj("{'metadata':{'name':'a'},'status':{'phase':'Active'}}")));
        assertFalse(
                PublishedObject.active(
                        obj("{'metadata':{'name':'a'},'status':{'phase':'Terminating'}}")));
        assertFalse(
                PublishedObject.active(
                        obj(
                                "{'metadata':{'name':'a','deletionTimestamp':'2026-01-01T00:00:00Z'},"
                                        + "'status':{'phase':'Active'}}")));
    }
}
