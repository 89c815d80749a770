package io.kubepekko.api.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubepekko.api.protobuf.ProtoField;
import io.kubepekko.api.protobuf.ProtoMessage;
import io.kubepekko.api.protobuf.ProtoSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the merge metadata data file: its syntax, its names against our message definitions, and
 * known facts.
 */
class MergeMetadataFileTest {

    private static final String RESOURCE = "/io/kubepekko/api/merge/merge-metadata.txt";
    private static final Set<String> PATCH =
            Set.of("merge", "replace", "retainKeys", "merge,retainKeys");
    private static final Set<String> LIST = Set.of("atomic", "set", "map");
    private static final Set<String> GRANULARITY = Set.of("atomic", "granular");

    private record Line(int number, String type, String field, Map<String, String> attrs) {
        String attr(String key) {
            return attrs.get(key);
        }
    }

    private static List<Line> lines;
    private static List<String> groups;
    private static Map<String, Line> byTypeField;

    @BeforeAll
    static void read() throws IOException {
        String text;
        try (InputStream in = MergeMetadataFileTest.class.getResourceAsStream(RESOURCE)) {
            assertNotNull(in, RESOURCE + " is on the class path");
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        lines = new ArrayList<>();
        groups = new ArrayList<>();
        byTypeField = new LinkedHashMap<>();
        String[] raw = text.split("\n", -1);
        for (int i = 0; i < raw.length; i++) {
            String s = raw[i].strip();
            if (s.startsWith("# --- ") && s.endsWith(" ---")) {
                groups.add(s.substring(6, s.length() - 4));
                continue;
            }
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] parts = s.split("\\s+");
            if (parts.length < 3) {
                fail(
                        "line "
                                + (i + 1)
                                + ": needs a type, a field and at least one attribute: "
                                + s);
            }
            Map<String, String> attrs = new LinkedHashMap<>();
            for (int p = 2; p < parts.length; p++) {
                int eq = parts[p].indexOf('=');
                if (eq <= 0 || eq == parts[p].length() - 1) {
                    fail("line " + (i + 1) + ": attribute is not key=value: " + parts[p]);
                }
                String key = parts[p].substring(0, eq);
                if (attrs.put(key, parts[p].substring(eq + 1)) != null) {
                    fail("line " + (i + 1) + ": attribute " + key + " given twice");
                }
            }
            Line line = new Line(i + 1, parts[0], parts[1], attrs);
            lines.add(line);
            if (byTypeField.put(line.type() + " " + line.field(), line) != null) {
                fail("line " + (i + 1) + ": " + line.type() + " " + line.field() + " listed twice");
            }
        }
    }

    @Test
    void everyLineParses() {
        assertTrue(lines.size() > 150, "the file lists the markers of all groups");
        for (Line l : lines) {
            String where = "line " + l.number() + " (" + l.type() + " " + l.field() + "): ";
            assertTrue(
                    l.type().matches("[a-z]+(\\.[a-z0-9]+)*\\.[A-Z][A-Za-z0-9]*"),
                    where + "type name");
            assertTrue(
                    l.field().equals("*") || l.field().matches("[a-z][A-Za-z0-9]*"),
                    where + "field name");
            for (Map.Entry<String, String> a : l.attrs().entrySet()) {
                String v = a.getValue();
                switch (a.getKey()) {
                    case "patch" -> assertTrue(PATCH.contains(v), where + "patch=" + v);
                    case "key", "keys" ->
                            assertTrue(
                                    v.matches("[a-zA-Z]+(,[a-zA-Z]+)*"),
                                    where + a.getKey() + "=" + v);
                    case "list" -> assertTrue(LIST.contains(v), where + "list=" + v);
                    case "map", "struct" ->
                            assertTrue(GRANULARITY.contains(v), where + a.getKey() + "=" + v);
                    default -> fail(where + "unknown attribute " + a.getKey());
                }
            }
            if (l.field().equals("*")) {
                assertEquals(
                        Set.of("struct"),
                        l.attrs().keySet(),
                        where + "a type line carries only struct=");
            }
            assertFalse(
                    l.attrs().containsKey("key") && l.attr("key").contains(","),
                    where + "one merge key");
            String list = l.attr("list");
            assertEquals(
                    "map".equals(list),
                    l.attrs().containsKey("keys"),
                    where + "keys= goes with list=map, and only with it");
        }
    }

    @Test
    void groupsFollowTheDefinitionFiles() {
        assertEquals(
                List.of(
                        "meta",
                        "core/v1",
                        "core/v1 pod",
                        "core/v1 cluster",
                        "apps/v1",
                        "batch/v1",
                        "networking/v1",
                        "policy/v1",
                        "rbac/v1",
                        "storage/v1",
                        "admissionregistration/v1",
                        "scheduling/v1",
                        "coordination/v1",
                        "autoscaling/v1",
                        "autoscaling/v2"),
                groups);
    }

    @Test
    void namesAreOurMessagesAndJsonFields() {
        ProtoSchema schema = ProtoSchema.builtin();
        for (Line l : lines) {
            String where = "line " + l.number() + ": ";
            ProtoMessage message = schema.message(l.type());
            assertNotNull(message, where + l.type() + " is a message of the protobuf definitions");
            if (l.field().equals("*")) {
                continue;
            }
            ProtoField field = message.field(l.field());
            assertNotNull(field, where + l.type() + " has a JSON field " + l.field());
            assertFalse(field.inline(), where + "inlined embeddings have no markers of their own");
            if (l.attrs().containsKey("list")) {
                assertTrue(field.repeated(), where + l.field() + " is a list");
            }
            if (l.attrs().containsKey("map")) {
                assertTrue(field.mapValue() != null, where + l.field() + " is a map");
            }
            if (l.attrs().containsKey("struct")) {
                assertTrue(
                        !field.repeated()
                                && field.mapValue() == null
                                && schema.message(field.type()) != null,
                        where + l.field() + " is a struct");
            }
            String patch = l.attr("patch");
            if (patch != null
                    && patch.contains("merge")
                    && field.repeated()
                    && schema.message(field.type()) != null) {
                assertNotNull(l.attr("key"), where + "a merged list of objects has a merge key");
            }
            if (l.attr("key") != null) {
                assertTrue(
                        field.repeated() && schema.message(field.type()) != null,
                        where + "a merge key belongs to a list of objects");
                assertNotNull(
                        jsonField(schema, schema.message(field.type()), l.attr("key")),
                        where + "the merge key is a field of the element type");
            }
            if (l.attr("keys") != null) {
                ProtoMessage element = schema.message(field.type());
                assertNotNull(element, where + "a list map holds objects");
                for (String k : l.attr("keys").split(",")) {
                    assertNotNull(
                            jsonField(schema, element, k),
                            where + "list map key " + k + " is a field of " + element.name());
                }
            }
        }
    }

    /**
     * The JSON field of this name, looking into inlined embeddings as JSON does; null if there is
     * none.
     */
    private static ProtoField jsonField(ProtoSchema schema, ProtoMessage message, String name) {
        ProtoField direct = message.field(name);
        if (direct != null && !direct.inline()) {
            return direct;
        }
        for (ProtoField f : message.fields()) {
            if (f.inline()) {
                ProtoField inner = jsonField(schema, schema.message(f.type()), name);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /**
     * Each message's JSON field names in the order the definition files declare them (Kubernetes'
     * Go order).
     */
    private static Map<String, List<String>> declaredOrder() throws IOException {
        Map<String, List<String>> order = new LinkedHashMap<>();
        for (String file :
                List.of(
                        "meta",
                        "core-v1",
                        "core-v1-pod",
                        "core-v1-cluster",
                        "apps-v1",
                        "batch-v1",
                        "networking-v1",
                        "policy-v1",
                        "rbac-v1",
                        "storage-v1",
                        "admissionregistration-v1",
                        "scheduling-v1",
                        "coordination-v1",
                        "autoscaling-v1",
                        "autoscaling-v2")) {
            String path = "/io/kubepekko/api/protobuf/" + file + ".wire";
            try (InputStream in = MergeMetadataFileTest.class.getResourceAsStream(path)) {
                assertNotNull(in, path);
                String pkg = null;
                List<String> fields = null;
                for (String raw :
                        new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    int hash = raw.indexOf('#');
                    String s = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
                    if (s.isEmpty()) {
                        continue;
                    }
                    String[] parts = s.split("\\s+");
                    if (parts[0].equals("package")) {
                        pkg = parts[1];
                    } else if (parts[0].equals("message")) {
                        fields = new ArrayList<>();
                        order.put(pkg + "." + parts[1], fields);
                    } else if (fields != null && parts.length >= 2) {
                        fields.add(parts[1]);
                    }
                }
            }
        }
        return order;
    }

    @Test
    void linesFollowFieldOrderWithinAType() throws IOException {
        Map<String, List<String>> order = declaredOrder();
        Set<String> closed = new HashSet<>();
        String current = null;
        int last = -2;
        for (Line l : lines) {
            if (!l.type().equals(current)) {
                assertFalse(
                        closed.contains(l.type()),
                        "line " + l.number() + ": the lines of " + l.type() + " are together");
                if (current != null) {
                    closed.add(current);
                }
                current = l.type();
                last = -2;
            }
            List<String> fields = order.get(l.type());
            assertNotNull(
                    fields,
                    "line " + l.number() + ": " + l.type() + " is declared in a definition file");
            int index = l.field().equals("*") ? -1 : fields.indexOf(l.field());
            assertTrue(
                    index > last,
                    "line " + l.number() + ": " + l.field() + " is in declared field order");
            last = index;
        }
    }

    private static Line line(String type, String field) {
        Line l = byTypeField.get(type + " " + field);
        assertNotNull(l, type + " " + field + " is listed");
        return l;
    }

    private static void assertAttrs(String type, String field, String expected) {
        Map<String, String> want = new LinkedHashMap<>();
        for (String a : expected.split(" ")) {
            int eq = a.indexOf('=');
            want.put(a.substring(0, eq), a.substring(eq + 1));
        }
        assertEquals(want, line(type, field).attrs(), type + " " + field);
    }

    @Test
    void wellKnownFacts() {
        assertAttrs("core.v1.PodSpec", "containers", "patch=merge key=name list=map keys=name");
        assertAttrs("core.v1.PodSpec", "initContainers", "patch=merge key=name list=map keys=name");
        assertAttrs(
                "core.v1.PodSpec", "volumes", "patch=merge,retainKeys key=name list=map keys=name");
        assertAttrs("core.v1.PodSpec", "tolerations", "list=atomic");
        assertAttrs("core.v1.PodSpec", "nodeSelector", "map=atomic");
        assertAttrs(
                "core.v1.PodSpec", "imagePullSecrets", "patch=merge key=name list=map keys=name");
        assertAttrs(
                "core.v1.PodSpec",
                "topologySpreadConstraints",
                "patch=merge key=topologyKey list=map keys=topologyKey,whenUnsatisfiable");
        assertAttrs("core.v1.Container", "env", "patch=merge key=name list=map keys=name");
        assertAttrs(
                "core.v1.Container",
                "volumeMounts",
                "patch=merge key=mountPath list=map keys=mountPath");
        assertAttrs(
                "core.v1.Container",
                "ports",
                "patch=merge key=containerPort list=map keys=containerPort,protocol");
        assertAttrs("core.v1.Container", "command", "list=atomic");
        assertAttrs("core.v1.PodStatus", "conditions", "patch=merge key=type list=map keys=type");
        assertAttrs(
                "core.v1.ServiceSpec", "ports", "patch=merge key=port list=map keys=port,protocol");
        assertAttrs("core.v1.ServiceSpec", "selector", "map=atomic");
        assertAttrs("core.v1.NodeSpec", "podCIDRs", "patch=merge list=set");
        assertAttrs("meta.ObjectMeta", "ownerReferences", "patch=merge key=uid list=map keys=uid");
        assertAttrs("meta.ObjectMeta", "finalizers", "patch=merge list=set");
        assertAttrs("meta.ObjectMeta", "managedFields", "list=atomic");
        assertAttrs("meta.LabelSelector", "*", "struct=atomic");
        assertAttrs("meta.LabelSelector", "matchExpressions", "list=atomic");
        assertAttrs("apps.v1.DeploymentSpec", "strategy", "patch=retainKeys");
        assertAttrs(
                "apps.v1.DeploymentStatus",
                "conditions",
                "patch=merge key=type list=map keys=type");
        assertAttrs("apps.v1.StatefulSetSpec", "volumeClaimTemplates", "list=atomic");
        assertAttrs("batch.v1.JobStatus", "conditions", "patch=merge key=type list=atomic");
        assertAttrs("policy.v1.PodDisruptionBudgetSpec", "selector", "patch=replace");
        assertAttrs("core.v1.PersistentVolumeSpec", "claimRef", "struct=granular");
        assertAttrs("core.v1.ObjectReference", "*", "struct=atomic");
        // Unmarked fields are left out.
        assertNull(byTypeField.get("meta.ObjectMeta labels"));
        assertNull(byTypeField.get("core.v1.PodSpec restartPolicy"));
    }
}
