package io.kubepekko.api.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Field paths as structured-merge-diff prints them in apply conflicts. */
class FieldPathsTest {

    @Test
    void printsFieldsKeysValuesAndIndexes() {
        assertEquals(
                ".spec.template.spec.containers[name=\"nginx\"].image",
                FieldPaths.render(
                        List.of(
                                "f:spec",
                                "f:template",
                                "f:spec",
                                "f:containers",
                                "k:{\"name\":\"nginx\"}",
                                "f:image")));
        assertEquals(
                ".spec.ports[port=80,protocol=\"TCP\"]",
                FieldPaths.render(
                        List.of("f:spec", "f:ports", "k:{\"port\":80,\"protocol\":\"TCP\"}")));
        assertEquals(
                ".metadata.finalizers[=\"x\"]",
                FieldPaths.render(List.of("f:metadata", "f:finalizers", "v:\"x\"")));
        assertEquals(".spec.args[3]", FieldPaths.render(List.of("f:spec", "f:args", "i:3")));
    }

    @Test
    void aMalformedKeyFromClientSuppliedManagedFieldsIsPrintedAsItIs() {
        assertEquals(
                ".spec.items[not json]",
                FieldPaths.render(List.of("f:spec", "f:items", "k:not json")));
        assertEquals(".spec.items[[1]]", FieldPaths.render(List.of("f:spec", "f:items", "k:[1]")));
    }
}
