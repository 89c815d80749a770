package io.kubepekko.api.watch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Parses only some paths of a stored JSON object: a reader that needs a few fields (selector
 * values, owner references) builds a tree of a few nodes instead of the whole object, whose bulk
 * (spec, data, managedFields) it never looks at. It skips what it does not keep without decoding
 * it, and stops reading once it has every top-level field it keeps: a stored object is the server's
 * own JSON, so what follows (a ConfigMap's data after its metadata) need not be scanned.
 */
public final class PartialJson {
    /**
     * Field names are not canonicalized. With the symbol table of the server's mapper, which every
     * other parse shares, more than half of a restart's parsing of 100,000 pods went to adding
     * names to it again, each parse copying the whole table first (profiled). Without one a name
     * costs a small String, however many distinct names the objects and the server's other input
     * hold.
     */
    private static final JsonFactory FACTORY =
            JsonFactory.builder().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();

    private final Paths keep;

    private PartialJson(Paths keep) {
        this.keep = keep;
    }

    /**
     * Keeps each dotted path (and everything below it). A path runs through objects and through
     * arrays of objects: of an array on the way, each object keeps the rest of the path (its other
     * elements are dropped), so {@code spec.containers.env} keeps every container's {@code env}
     * only. A scalar where an object was expected is dropped, and an object or array on the way
     * that holds nothing kept is left out.
     */
    public static PartialJson keeping(Set<String> paths) {
        return new PartialJson(Paths.of(paths));
    }

    /**
     * The kept parts of a stored object; anything not JSON or not an object is an
     * IllegalArgumentException.
     */
    public ObjectNode parse(byte[] json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("stored object is not a JSON object");
            }
            ObjectNode out = Json.MAPPER.createObjectNode();
            readObject(p, keep, out, true);
            return out;
        } catch (IOException e) {
            throw new IllegalArgumentException("stored object is not JSON", e);
        }
    }

    /** Reads the object {@code p} is in into {@code out}; at the top, only until all is kept. */
    private static void readObject(JsonParser p, Paths paths, ObjectNode out, boolean top)
            throws IOException {
        int found = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            Paths child = paths.children.get(p.currentName());
            JsonToken value = p.nextToken();
            if (child == null) {
                p.skipChildren();
                continue;
            }
            String name = p.currentName();
            if (child.whole) {
                out.set(name, Json.MAPPER.readTree(p));
            } else if (value == JsonToken.START_ARRAY) {
                ArrayNode inner = readArray(p, child);
                if (!inner.isEmpty()) {
                    out.set(name, inner);
                }
            } else if (value == JsonToken.START_OBJECT) {
                ObjectNode inner = Json.MAPPER.createObjectNode();
                readObject(p, child, inner, false);
                if (!inner.isEmpty()) {
                    out.set(name, inner);
                }
            }
            if (top && ++found == paths.children.size()) {
                return;
            }
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new IllegalArgumentException("stored object is not JSON");
        }
    }

    /** Of the array {@code p} is at the start of, each object's kept parts that hold anything. */
    private static ArrayNode readArray(JsonParser p, Paths paths) throws IOException {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t == null) {
                throw new IllegalArgumentException("stored object is not JSON");
            }
            if (t == JsonToken.START_OBJECT) {
                ObjectNode element = Json.MAPPER.createObjectNode();
                readObject(p, paths, element, false);
                if (!element.isEmpty()) {
                    out.add(element);
                }
            } else {
                p.skipChildren();
            }
        }
        return out;
    }

    /** The kept paths as a tree: a node is kept whole, or only the children it names. */
    private record Paths(boolean whole, Map<String, Paths> children) {
        static Paths of(Set<String> paths) {
            Builder root = new Builder();
            for (String path : paths) {
                Builder n = root;
                for (String part : path.split("\\.", -1)) {
                    n = n.children.computeIfAbsent(part, k -> new Builder());
                }
                n.whole = true;
            }
            return root.build();
        }

        private static final class Builder {
            boolean whole;
            final Map<String, Builder> children = new HashMap<>();

            Paths build() {
                Map<String, Paths> built = new HashMap<>();
                children.forEach((k, v) -> built.put(k, v.build()));
                return new Paths(whole, Map.copyOf(built));
            }
        }
    }
}
