package io.kubepekko.api.protobuf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Our message definitions against Kubernetes' own (the published Java protobuf classes, test scope
 * only): every message we define exists there with the same fields, numbers, names and types, and
 * we define every field it has, so a client's field is never unknown to us.
 */
class ProtoSchemaConformanceTest {

    /** Our package prefix and theirs. */
    private static final Map<String, String> PACKAGES =
            Map.ofEntries(
                    Map.entry("meta.", "k8s.io.apimachinery.pkg.apis.meta.v1."),
                    Map.entry("runtime.", "k8s.io.apimachinery.pkg.runtime."),
                    Map.entry("intstr.", "k8s.io.apimachinery.pkg.util.intstr."),
                    Map.entry("resource.", "k8s.io.apimachinery.pkg.api.resource."),
                    Map.entry("core.v1.", "k8s.io.api.core.v1."),
                    Map.entry("apps.v1.", "k8s.io.api.apps.v1."),
                    Map.entry("batch.v1.", "k8s.io.api.batch.v1."),
                    Map.entry("networking.v1.", "k8s.io.api.networking.v1."),
                    Map.entry("policy.v1.", "k8s.io.api.policy.v1."),
                    Map.entry("rbac.v1.", "k8s.io.api.rbac.v1."),
                    Map.entry("storage.v1.", "k8s.io.api.storage.v1."),
                    Map.entry("scheduling.v1.", "k8s.io.api.scheduling.v1."),
                    Map.entry("coordination.v1.", "k8s.io.api.coordination.v1."),
                    Map.entry("autoscaling.v1.", "k8s.io.api.autoscaling.v1."),
                    Map.entry("autoscaling.v2.", "k8s.io.api.autoscaling.v2."));

    private static final List<String> THEIR_FILES =
            List.of(
                    "Meta",
                    "Runtime",
                    "IntStr",
                    "Resource",
                    "V1",
                    "V1Apps",
                    "V1Batch",
                    "V1Networking",
                    "V1Policy",
                    "V1Rbac",
                    "V1Storage",
                    "V1Scheduling",
                    "V1Coordination",
                    "V1Autoscaling",
                    "V2Autoscaling");

    private static Map<String, Descriptor> theirs() throws Exception {
        Map<String, Descriptor> out = new HashMap<>();
        for (String file : THEIR_FILES) {
            Class<?> c;
            try {
                c = Class.forName("io.kubernetes.client.proto." + file);
            } catch (ClassNotFoundException e) {
                continue;
            }
            FileDescriptor fd = (FileDescriptor) c.getMethod("getDescriptor").invoke(null);
            for (Descriptor d : fd.getMessageTypes()) {
                out.put(d.getFullName(), d);
            }
        }
        return out;
    }

    static String theirName(String ours) {
        for (Map.Entry<String, String> e : PACKAGES.entrySet()) {
            if (ours.startsWith(e.getKey())) {
                return e.getValue() + ours.substring(e.getKey().length());
            }
        }
        return ours;
    }

    private static String type(FieldDescriptor f) {
        return f.getType() == FieldDescriptor.Type.MESSAGE
                ? f.getMessageType().getFullName()
                : f.getType().name().toLowerCase();
    }

    private static String ourType(String type) {
        return ProtoField.isScalar(type) ? type : theirName(type);
    }

    @Test
    void everyDefinitionMatchesKubernetesFieldForField() throws Exception {
        Map<String, Descriptor> theirs = theirs();
        ProtoSchema schema = ProtoSchema.builtin();
        List<String> problems = new ArrayList<>();
        Set<String> theirPackages = new HashSet<>();
        theirs.values().forEach(d -> theirPackages.add(d.getFile().getPackage()));
        for (String name : schema.names()) {
            String theirName = theirName(name);
            if (!theirPackages.contains(theirName.substring(0, theirName.lastIndexOf('.')))) {
                continue; // a group the published classes lack (coordination): checked by
                // ProtobufBodiesTest only
            }
            Descriptor d = theirs.get(theirName);
            if (d == null) {
                problems.add(name + ": Kubernetes has no such message");
                continue;
            }
            ProtoMessage ours = schema.message(name);
            for (ProtoField f : ours.fields()) {
                FieldDescriptor t = d.findFieldByNumber(f.number());
                if (t == null) {
                    problems.add(
                            name
                                    + "."
                                    + f.jsonName()
                                    + " = "
                                    + f.number()
                                    + ": no such field number");
                    continue;
                }
                if (!t.getName().equals(f.jsonName())) {
                    problems.add(
                            name
                                    + " #"
                                    + f.number()
                                    + ": ours "
                                    + f.jsonName()
                                    + ", theirs "
                                    + t.getName());
                }
                if (t.isMapField() != f.isMap()
                        || (t.isRepeated() && !t.isMapField()) != f.repeated()) {
                    problems.add(name + "." + f.jsonName() + ": cardinality differs");
                    continue;
                }
                String theirType =
                        t.isMapField() ? type(t.getMessageType().findFieldByNumber(2)) : type(t);
                String ourType = ourType(f.isMap() ? f.mapValue() : f.type());
                if (!theirType.equals(ourType)) {
                    problems.add(
                            name
                                    + "."
                                    + f.jsonName()
                                    + ": ours "
                                    + ourType
                                    + ", theirs "
                                    + theirType);
                }
            }
            for (FieldDescriptor t : d.getFields()) {
                if (ours.field(t.getNumber()) == null) {
                    problems.add(
                            name
                                    + ": missing field "
                                    + t.getNumber()
                                    + " "
                                    + t.getName()
                                    + " "
                                    + type(t));
                }
            }
        }
        assertTrue(
                problems.isEmpty(),
                () -> problems.size() + " differences:\n" + String.join("\n", problems));
    }

    @Test
    void everyMessageOurDefinitionsReferToIsDefinedOrBuiltIn() {
        // ProtoSchema.builtin() resolves every type when it loads; this fails if it cannot.
        assertTrue(ProtoSchema.builtin().names().contains("meta.ObjectMeta"));
    }
}
