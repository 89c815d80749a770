package io.kubepekko.api.watch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.util.Set;

/**
 * Parses only some paths of a stored JSON object: a reader that needs a few fields (selector
 * values, owner references) builds a tree of a few nodes instead of the whole object, whose bulk
 * (spec, managedFields) it never looks at.
 */
public final class PartialJson {
    private final PathFilter keep;

    private PartialJson(PathFilter keep) {
        this.keep = keep;
    }

    /** Keeps each dotted path (and everything below it); an array on the way is kept whole. */
    public static PartialJson keeping(Set<String> paths) {
        return new PartialJson(PathFilter.of(paths));
    }

    /**
     * The kept parts of a stored object; anything not JSON or not an object is an
     * IllegalArgumentException.
     */
    public ObjectNode parse(byte[] json) {
        try (JsonParser p =
                new FilteringParserDelegate(
                        Json.MAPPER.createParser(json),
                        keep,
                        TokenFilter.Inclusion.INCLUDE_ALL_AND_PATH,
                        true)) {
            JsonNode tree = Json.MAPPER.readTree(p);
            if (tree instanceof ObjectNode o) {
                return o;
            }
            throw new IllegalArgumentException("stored object is not a JSON object");
        } catch (IOException e) {
            throw new IllegalArgumentException("stored object is not JSON", e);
        }
    }
}
