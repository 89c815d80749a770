package io.kubepekko.api.kinds;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * events.k8s.io/v1 Events to their stored core/v1 form and back: every field renamed as kube's
 * conversion does, nothing lost either way (checked on generated objects holding any subset of each
 * version's fields, nulls included), fields in the target version's order.
 */
class EventsV1ConversionTest {

    private static final EventsV1Conversion CONVERSION = EventsV1Conversion.INSTANCE;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static List<String> fieldNames(ObjectNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void renamesEveryFieldEventsV1CallsOtherwise() {
        ObjectNode events =
                obj(
                        "{'metadata':{'name':'e','namespace':'default'},"
                                + "'eventTime':'2026-01-02T03:04:05.000006Z',"
                                + "'series':{'count':3,'lastObservedTime':'2026-01-02T03:05:00.000000Z'},"
                                + "'reportingController':'example.com/ctl','reportingInstance':'ctl-1',"
                                + "'action':'Scale','reason':'Scaled',"
                                + "'regarding':{'kind':'Deployment','name':'web','namespace':'default'},"
                                + "'related':{'kind':'ReplicaSet','name':'web-1'},"
                                + "'note':'scaled up','type':'Normal',"
                                + "'deprecatedSource':{'component':'old','host':'h'},"
                                + "'deprecatedFirstTimestamp':'2026-01-01T00:00:00Z',"
                                + "'deprecatedLastTimestamp':'2026-01-01T00:00:01Z',"
                                + "'deprecatedCount':7}");
        ObjectNode core = CONVERSION.toStorage(events);
        assertEquals(
                obj(
                        "{'metadata':{'name':'e','namespace':'default'},"
                                + "'involvedObject':{'kind':'Deployment','name':'web','namespace':'default'},"
                                + "'reason':'Scaled','message':'scaled up',"
                                + "'source':{'component':'old','host':'h'},"
                                + "'firstTimestamp':'2026-01-01T00:00:00Z',"
                                + "'lastTimestamp':'2026-01-01T00:00:01Z','count':7,'type':'Normal',"
                                + "'eventTime':'2026-01-02T03:04:05.000006Z',"
                                + "'series':{'count':3,'lastObservedTime':'2026-01-02T03:05:00.000000Z'},"
                                + "'action':'Scale','related':{'kind':'ReplicaSet','name':'web-1'},"
                                + "'reportingComponent':'example.com/ctl','reportingInstance':'ctl-1'}"),
                core);
        // In the order of core/v1's Go struct, as kube-apiserver writes it.
        assertEquals(
                List.of(
                        "metadata",
                        "involvedObject",
                        "reason",
                        "message",
                        "source",
                        "firstTimestamp",
                        "lastTimestamp",
                        "count",
                        "type",
                        "eventTime",
                        "series",
                        "action",
                        "related",
                        "reportingComponent",
                        "reportingInstance"),
                fieldNames(core));
        ObjectNode back = CONVERSION.fromStorage(core);
        assertEquals(events, back);
        assertEquals(fieldNames(events), fieldNames(back));
    }

    @Test
    void leavesItsInputAlone() {
        ObjectNode core = obj("{'involvedObject':{'name':'p'},'message':'m'}");
        ObjectNode copy = core.deepCopy();
        CONVERSION.fromStorage(core);
        assertEquals(copy, core);
    }

    /** Top-level fields of core/v1 Event, with the kind of value each holds. */
    private static final Map<String, String> CORE_FIELDS =
            Map.ofEntries(
                    Map.entry("metadata", "object"),
                    Map.entry("involvedObject", "object"),
                    Map.entry("reason", "string"),
                    Map.entry("message", "string"),
                    Map.entry("source", "object"),
                    Map.entry("firstTimestamp", "time"),
                    Map.entry("lastTimestamp", "time"),
                    Map.entry("count", "int"),
                    Map.entry("type", "string"),
                    Map.entry("eventTime", "time"),
                    Map.entry("series", "object"),
                    Map.entry("action", "string"),
                    Map.entry("related", "object"),
                    Map.entry("reportingComponent", "string"),
                    Map.entry("reportingInstance", "string"));

    /** The same for events.k8s.io/v1 Event. */
    private static final Map<String, String> EVENTS_FIELDS =
            Map.ofEntries(
                    Map.entry("metadata", "object"),
                    Map.entry("eventTime", "time"),
                    Map.entry("series", "object"),
                    Map.entry("reportingController", "string"),
                    Map.entry("reportingInstance", "string"),
                    Map.entry("action", "string"),
                    Map.entry("reason", "string"),
                    Map.entry("regarding", "object"),
                    Map.entry("related", "object"),
                    Map.entry("note", "string"),
                    Map.entry("type", "string"),
                    Map.entry("deprecatedSource", "object"),
                    Map.entry("deprecatedFirstTimestamp", "time"),
                    Map.entry("deprecatedLastTimestamp", "time"),
                    Map.entry("deprecatedCount", "int"));

    /** Any subset of {@code fields}, each absent, null, empty or holding a random value. */
    private static ObjectNode random(Random r, Map<String, String> fields) {
        ObjectNode o = F.objectNode();
        List<String> names = new ArrayList<>(fields.keySet());
        Collections.shuffle(names, r);
        for (String name : names) {
            int pick = r.nextInt(5);
            if (pick == 0) {
                continue;
            }
            if (pick == 1) {
                o.putNull(name);
                continue;
            }
            JsonNode value =
                    switch (fields.get(name)) {
                        case "object" ->
                                pick == 2
                                        ? F.objectNode()
                                        : F.objectNode()
                                                .put("name", "n" + r.nextInt(100))
                                                .put("kind", "K" + r.nextInt(3))
                                                .put("count", r.nextInt(10));
                        case "time" -> F.textNode("2026-0" + (1 + r.nextInt(9)) + "-01T00:00:00Z");
                        case "int" -> F.numberNode(pick == 2 ? 0 : r.nextInt(1000));
                        default -> F.textNode(pick == 2 ? "" : "v" + r.nextInt(1000));
                    };
            o.set(name, value);
        }
        return o;
    }

    @Test
    void roundTripsAnyCoreEventWithoutLoss() {
        Random r = new Random(26);
        for (int i = 0; i < 2000; i++) {
            ObjectNode core = random(r, CORE_FIELDS);
            ObjectNode events = CONVERSION.fromStorage(core);
            for (String name : fieldNames(events)) {
                assertFalse(
                        CORE_FIELDS.containsKey(name) && !EVENTS_FIELDS.containsKey(name),
                        () -> name + " kept its core/v1 name: " + events);
            }
            assertEquals(core, CONVERSION.toStorage(events), () -> "through " + events);
        }
    }

    @Test
    void roundTripsAnyEventsV1EventWithoutLoss() {
        Random r = new Random(35);
        for (int i = 0; i < 2000; i++) {
            ObjectNode events = random(r, EVENTS_FIELDS);
            ObjectNode core = CONVERSION.toStorage(events);
            for (String name : fieldNames(core)) {
                assertFalse(
                        EVENTS_FIELDS.containsKey(name) && !CORE_FIELDS.containsKey(name),
                        () -> name + " kept its events.k8s.io name: " + core);
            }
            assertEquals(events, CONVERSION.fromStorage(core), () -> "through " + core);
        }
    }

    /**
     * Lists convert each stored item's bytes without a tree ({@link
     * io.kubepekko.api.meta.TopLevelFields}): the result must be the very bytes the tree conversion
     * writes, for any stored event, fields no version knows (oddly named ones too) and values of
     * every JSON type included.
     */
    @Test
    void convertsStoredBytesExactlyAsTheTreeDoes() {
        ServedKind served =
                Registry.builtin().served("events.k8s.io", "v1", "events").orElseThrow();
        Random r = new Random(2611);
        for (int i = 0; i < 3000; i++) {
            ObjectNode core = random(r, CORE_FIELDS);
            if (r.nextBoolean()) {
                core.put("apiVersion", "v1");
                core.put("kind", "Event");
            }
            if (r.nextInt(3) == 0) {
                core.set(
                        r.nextBoolean() ? "zUnknown" : "odd \"name\" \u00e9\n",
                        F.objectNode()
                                .put("s", "quote \" backslash \\ tab \t snow \u2603 \ud83d\ude00")
                                .put("f", new BigDecimal("1.50"))
                                .put("l", Long.MIN_VALUE)
                                .put("b", r.nextBoolean())
                                .putNull("n")
                                .set(
                                        "a",
                                        F.arrayNode()
                                                .add(1)
                                                .add("x")
                                                .addNull()
                                                .add(F.objectNode())));
            }
            if (r.nextInt(4) == 0) {
                // A stored field under a name the conversion gives another one (an unknown
                // "note" beside "message"), before or after it: the later wins, as in a tree.
                String[] taken = {"note", "regarding", "deprecatedCount", "reportingController"};
                String name = taken[r.nextInt(taken.length)];
                if (r.nextBoolean()) {
                    core.put(name, "late");
                } else {
                    ObjectNode first = F.objectNode().put(name, "early");
                    first.setAll(core);
                    core = first;
                }
            }
            // Stored bytes are a parsed request body written again (a decimal's trailing zeros
            // gone, as with Go's encoding).
            byte[] stored = Json.bytes(Json.parseTrusted(Json.bytes(core)));
            byte[] viaTree = Json.bytes(served.fromStorage(Json.parseTrusted(stored)));
            assertEquals(
                    new String(viaTree, UTF_8),
                    new String(served.fromStorage(stored), UTF_8),
                    () -> "from " + new String(stored, UTF_8));
        }
    }

    @Test
    void selectsByKubesLabelsOfEventsV1() {
        assertEquals("involvedObject.name", CONVERSION.fieldLabels().get("regarding.name"));
        assertEquals("reportingComponent", CONVERSION.fieldLabels().get("reportingController"));
        assertEquals(8, CONVERSION.fieldLabels().size());
    }
}
