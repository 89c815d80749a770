package io.kubepekko.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reading discovery documents in tests: one resource of a list, one group of aggregated discovery.
 */
final class DiscoveryDocuments {
    private DiscoveryDocuments() {}

    /** The entry named {@code name} of an APIResourceList. */
    static JsonNode resource(ObjectNode list, String name) {
        for (JsonNode r : list.get("resources")) {
            if (r.get("name").asText().equals(name)) {
                return r;
            }
        }
        throw new AssertionError(name + " not in " + list);
    }

    /** The item of {@code group} in the server's aggregated discovery of {@code /apis}. */
    static JsonNode aggregatedGroup(TestApiServer api, String group) {
        ObjectNode aggregated =
                api.get(
                                "/apis",
                                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
                        .assertCode(200)
                        .json();
        for (JsonNode g : aggregated.get("items")) {
            if (g.at("/metadata/name").asText().equals(group)) {
                return g;
            }
        }
        throw new AssertionError(group + " not in " + aggregated);
    }
}
