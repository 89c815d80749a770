package io.kubepekko.api.protobuf;

import io.kubepekko.api.meta.DefinitionLines;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The project's message definitions, wire-compatible with Kubernetes' protobuf for the built-in
 * kinds (same field numbers and types), written in a small text form of our own, one file per
 * package under {@code io/kubepekko/api/protobuf/}:
 *
 * <pre>
 * package meta
 * message ObjectMeta
 *   1 name string
 *   11 labels map&lt;string,string&gt;
 *   13 ownerReferences []OwnerReference
 *   10 deletionGracePeriodSeconds int64?
 * </pre>
 *
 * Each field line is {@code number jsonName type [inline]}: {@code []T} is repeated, {@code
 * map<string,V>} a map, a trailing {@code ?} marks a field whose presence matters (a Go pointer:
 * its zero value is kept), and {@code inline} a struct Go embeds with {@code json:",inline"}, whose
 * fields are the enclosing object's in JSON. Message names are resolved within their package first,
 * then as qualified names ({@code meta.Time}). A few messages with a JSON form of their own ({@link
 * SpecialTypes}) are built in.
 */
public final class ProtoSchema {

    /** The definition files, in load order. */
    static final List<String> FILES =
            List.of(
                    "meta.wire",
                    "meta-v1beta1.wire",
                    "core-v1.wire",
                    "core-v1-pod.wire",
                    "core-v1-cluster.wire",
                    "apps-v1.wire",
                    "events-v1.wire",
                    "authentication-v1.wire",
                    "authorization-v1.wire",
                    "batch-v1.wire",
                    "networking-v1.wire",
                    "networking-v1beta1.wire",
                    "policy-v1.wire",
                    "rbac-v1.wire",
                    "storage-v1.wire",
                    "admissionregistration-v1.wire",
                    "scheduling-v1.wire",
                    "coordination-v1.wire",
                    "autoscaling-v1.wire",
                    "autoscaling-v2.wire");

    private static final ProtoSchema BUILTIN = load(FILES);

    private final Map<String, ProtoMessage> messages;

    private ProtoSchema(Map<String, ProtoMessage> messages) {
        this.messages = messages;
    }

    /** The built-in kinds' definitions. */
    public static ProtoSchema builtin() {
        return BUILTIN;
    }

    /** The message with this qualified name, or null. */
    public ProtoMessage message(String qualifiedName) {
        return messages.get(qualifiedName);
    }

    /** Every message's qualified name. */
    public Set<String> names() {
        return messages.keySet();
    }

    static ProtoSchema load(List<String> files) {
        List<String[]> pending =
                new ArrayList<>(); // {package, message, line} to resolve once all are read
        Map<String, ProtoMessage> messages = new HashMap<>();
        for (String file : files) {
            String text = DefinitionLines.resource(ProtoSchema.class, file);
            if (text == null) {
                continue; // a package not written yet
            }
            parse(file, text, messages, pending);
        }
        for (String[] p : pending) {
            resolve(p[0], messages.get(p[1]), p[2], messages);
        }
        return new ProtoSchema(Map.copyOf(messages));
    }

    /** Parses one file's text (for tests: definitions without resources). */
    static ProtoSchema parse(String text) {
        List<String[]> pending = new ArrayList<>();
        Map<String, ProtoMessage> messages = new HashMap<>();
        parse("<text>", text, messages, pending);
        for (String[] p : pending) {
            resolve(p[0], messages.get(p[1]), p[2], messages);
        }
        return new ProtoSchema(Map.copyOf(messages));
    }

    private static void parse(
            String file, String text, Map<String, ProtoMessage> messages, List<String[]> pending) {
        String pkg = null;
        ProtoMessage current = null;
        for (DefinitionLines.Line l : DefinitionLines.of(text)) {
            int lineNo = l.number();
            String line = l.text();
            String[] parts = line.split("\\s+");
            if (parts[0].equals("package") && parts.length == 2) {
                pkg = parts[1];
            } else if (parts[0].equals("message") && parts.length == 2) {
                if (pkg == null) {
                    throw new IllegalArgumentException(
                            file + ":" + lineNo + ": message before package");
                }
                current = new ProtoMessage(pkg + "." + parts[1]);
                if (messages.put(current.name(), current) != null) {
                    throw new IllegalArgumentException(
                            file + ":" + lineNo + ": " + current.name() + " defined twice");
                }
            } else if ((parts.length == 3 || (parts.length == 4 && parts[3].equals("inline")))
                    && current != null
                    && parts[0].matches("\\d+")) {
                pending.add(new String[] {pkg, current.name(), line});
            } else {
                throw new IllegalArgumentException(
                        file + ":" + lineNo + ": cannot read \"" + line + "\"");
            }
        }
    }

    private static void resolve(
            String pkg, ProtoMessage message, String line, Map<String, ProtoMessage> messages) {
        String[] parts = line.split("\\s+");
        int number = Integer.parseInt(parts[0]);
        String type = parts[2];
        boolean presence = type.endsWith("?");
        if (presence) {
            type = type.substring(0, type.length() - 1);
        }
        boolean repeated = type.startsWith("[]");
        if (repeated) {
            type = type.substring(2);
        }
        String mapValue = null;
        if (type.startsWith("map<string,") && type.endsWith(">")) {
            mapValue =
                    qualify(
                            pkg,
                            type.substring("map<string,".length(), type.length() - 1),
                            messages,
                            message,
                            line);
            type = "map";
        } else {
            type = qualify(pkg, type, messages, message, line);
        }
        boolean inline = parts.length == 4;
        if (inline
                && (repeated
                        || mapValue != null
                        || ProtoField.isScalar(type)
                        || SpecialTypes.isSpecial(type))) {
            throw new IllegalArgumentException(
                    message.name() + ": only a single message can be inline: \"" + line + "\"");
        }
        message.add(new ProtoField(number, parts[1], type, repeated, mapValue, presence, inline));
    }

    private static String qualify(
            String pkg,
            String type,
            Map<String, ProtoMessage> messages,
            ProtoMessage in,
            String line) {
        if (ProtoField.isScalar(type)) {
            return type;
        }
        for (String candidate : List.of(pkg + "." + type, type)) {
            if (messages.containsKey(candidate) || SpecialTypes.isSpecial(candidate)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException(
                in.name() + ": unknown type " + type + " in \"" + line + "\"");
    }
}
