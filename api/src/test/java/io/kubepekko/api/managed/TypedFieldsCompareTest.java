package io.kubepekko.api.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link TypedFields#compare} skips equal subtrees and descends into structs, and {@link
 * TypedFields#applied} walks straight into a set; both must give exactly what the objects'
 * flattened fields give. Checked on random edits of a Deployment.
 */
class TypedFieldsCompareTest {

    private static final String TYPE = "apps.v1.Deployment";
    private final TypedFields fields = new TypedFields(MergeMetadata.builtin());

    private static final String DEPLOYMENT =
            """
            {"apiVersion":"apps/v1","kind":"Deployment",
             "metadata":{"name":"web","namespace":"default","uid":"u","resourceVersion":"5","generation":2,
               "labels":{"app":"web","tier":"front"},"annotations":{"a":"1"},"finalizers":["x/y"]},
             "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
               "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}},
               "template":{"metadata":{"labels":{"app":"web"}},
                 "spec":{"containers":[
                   {"name":"app","image":"app:1","args":["a","b"],"ports":[{"containerPort":80,"protocol":"TCP"}],
                    "env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
                    "resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}},
                   {"name":"side","image":"side:1"}],
                   "tolerations":[{"key":"k","operator":"Exists"}],
                   "securityContext":{},"volumes":[{"name":"v","emptyDir":{}}]}}},
             "status":{"replicas":2,"conditions":[{"type":"Available","status":"True"}]}}
            """;

    @Test
    void equalsTheFlattenedComparisonOnRandomEdits() {
        ObjectNode base = Json.parseTrusted(DEPLOYMENT.getBytes());
        Random random = new Random(42);
        for (int i = 0; i < 400; i++) {
            ObjectNode before = mutate(base, random, 1 + random.nextInt(3));
            ObjectNode after = mutate(before, random, 1 + random.nextInt(3));
            TypedFields.Comparison fast = fields.compare(before, after, TYPE);
            TypedFields.Comparison reference = reference(before, after);
            assertEquals(reference, fast, "edit " + i + "\nbefore " + before + "\nafter  " + after);
        }
    }

    @Test
    void theAppliedSetIsTheFlattenedFieldsWithoutMapNodes() {
        ObjectNode base = Json.parseTrusted(DEPLOYMENT.getBytes());
        Random random = new Random(7);
        for (int i = 0; i < 400; i++) {
            ObjectNode config = mutate(base, random, 1 + random.nextInt(4));
            FieldSet.Builder reference = new FieldSet.Builder();
            fields.flatten(config, TYPE)
                    .forEach(
                            (path, value) -> {
                                if (value != TypedFields.MAP_NODE) {
                                    reference.add(path);
                                }
                            });
            assertEquals(
                    reference.build(), fields.applied(config, TYPE), "config " + i + ": " + config);
        }
    }

    @Test
    void theFieldSetIsTheFlattenedFields() {
        ObjectNode base = Json.parseTrusted(DEPLOYMENT.getBytes());
        Random random = new Random(11);
        for (int i = 0; i < 400; i++) {
            ObjectNode object = mutate(base, random, 1 + random.nextInt(4));
            FieldSet.Builder reference = new FieldSet.Builder();
            fields.flatten(object, TYPE).keySet().forEach(reference::add);
            assertEquals(
                    reference.build(), fields.fields(object, TYPE), "object " + i + ": " + object);
            assertEquals(
                    reference.build(),
                    fields.compare(null, object, TYPE).added(),
                    "a create adds them all");
        }
    }

    @Test
    void anEqualObjectHasNoChanges() {
        ObjectNode base = Json.parseTrusted(DEPLOYMENT.getBytes());
        TypedFields.Comparison c = fields.compare(base, base.deepCopy(), TYPE);
        assertEquals(new TypedFields.Comparison(FieldSet.EMPTY, FieldSet.EMPTY, FieldSet.EMPTY), c);
    }

    private TypedFields.Comparison reference(ObjectNode before, ObjectNode after) {
        Map<List<String>, JsonNode> a = fields.flatten(before, TYPE);
        Map<List<String>, JsonNode> b = fields.flatten(after, TYPE);
        FieldSet.Builder added = new FieldSet.Builder();
        FieldSet.Builder modified = new FieldSet.Builder();
        FieldSet.Builder removed = new FieldSet.Builder();
        b.forEach(
                (path, value) -> {
                    JsonNode old = a.get(path);
                    if (old == null) {
                        added.add(path);
                    } else if (!old.equals(value)) {
                        modified.add(path);
                    }
                });
        a.keySet().stream().filter(p -> !b.containsKey(p)).forEach(removed::add);
        return new TypedFields.Comparison(added.build(), modified.build(), removed.build());
    }

    /**
     * A copy with {@code edits} random changes: values replaced, fields removed or added, lists
     * reordered.
     */
    private static ObjectNode mutate(ObjectNode source, Random random, int edits) {
        ObjectNode copy = source.deepCopy();
        for (int i = 0; i < edits; i++) {
            List<JsonNode> containers = new ArrayList<>();
            collect(copy, containers);
            JsonNode target = containers.get(random.nextInt(containers.size()));
            if (target instanceof ObjectNode o && !o.isEmpty()) {
                List<String> names = new ArrayList<>();
                o.fieldNames().forEachRemaining(names::add);
                String name = names.get(random.nextInt(names.size()));
                switch (random.nextInt(5)) {
                    case 0 -> o.remove(name);
                    case 1 -> o.put(name, "v" + random.nextInt(3));
                    case 2 -> o.put("new" + random.nextInt(3), random.nextInt(3));
                    case 3 -> o.putObject(name);
                    default -> o.putNull(name);
                }
            } else if (target instanceof ArrayNode arr && arr.size() > 1) {
                JsonNode first = arr.remove(0);
                arr.add(first);
            } else if (target instanceof ArrayNode arr) {
                arr.add(JsonNodeFactory.instance.textNode("x" + random.nextInt(3)));
            }
        }
        return copy;
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            Iterator<JsonNode> it = node.elements();
            while (it.hasNext()) {
                collect(it.next(), out);
            }
        }
    }
}
