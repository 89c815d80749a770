package io.kubepekko.e2e.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Reads the names of a list response's items from its body as a stream, in whichever representation
 * it came (JSON, pretty JSON, YAML, protobuf, a Table, a PartialObjectMetadataList), without
 * holding the list: the lists these tests read are larger than the heap of the server that writes
 * them.
 */
public final class StreamedLists {
    /** Leaves the body open at its end, so a caller can see that nothing follows the list. */
    private static final ObjectMapper JSON =
            new ObjectMapper(
                    JsonFactory.builder().disable(StreamReadFeature.AUTO_CLOSE_SOURCE).build());

    /**
     * The ConfigMap kube's root CA publisher keeps in every namespace: a list across namespaces
     * holds it once per namespace, the one name that may repeat.
     */
    private static final String IN_EVERY_NAMESPACE = "kube-root-ca.crt";

    private StreamedLists() {}

    private static void add(Set<String> listed, String name, String what) {
        assertTrue(listed.add(name) || name.equals(IN_EVERY_NAMESPACE), "listed twice: " + what);
    }

    /**
     * The names in a list answered for {@code accept}; each must appear once ({@value
     * #IN_EVERY_NAMESPACE} once per namespace).
     */
    public static Set<String> names(String accept, InputStream body) throws IOException {
        return accept.contains("protobuf")
                ? protobufNames(body)
                : accept.contains("yaml")
                        ? yamlNames(body)
                        : jsonNames(body, accept.contains("as=Table"));
    }

    /** The names in a JSON list (its items) or Table (its rows' first cells), read as a stream. */
    public static Set<String> jsonNames(InputStream body, boolean table) throws IOException {
        Set<String> listed = new HashSet<>();
        JsonParser p = JSON.getFactory().createParser(body);
        assertEquals(JsonToken.START_OBJECT, p.nextToken());
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (!field.equals(table ? "rows" : "items")) {
                p.skipChildren();
                continue;
            }
            while (p.nextToken() != JsonToken.END_ARRAY) {
                JsonNode element = p.readValueAsTree();
                String name =
                        table
                                ? element.path("cells").path(0).asText()
                                : element.path("metadata").path("name").asText();
                add(listed, name, name);
            }
        }
        assertEquals(null, p.nextToken(), "the list ends the body");
        return listed;
    }

    /**
     * The names in a YAML list, read line by line (a YAML parser reads 150 MB slower than the
     * server writes it): the list's fields come first and {@code items} last, one {@code - } entry
     * per item, its name indented under its metadata. That the YAML is the list, byte for byte, the
     * unit tests show.
     */
    public static Set<String> yamlNames(InputStream body) throws IOException {
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        assertTrue(lines.readLine().startsWith("kind: "), "a list's kind first");
        Set<String> listed = new HashSet<>();
        int entries = 0;
        int named = 0;
        boolean inItems = false;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.equals("items:")) {
                inItems = true;
            } else if (inItems && line.startsWith("- ")) {
                entries++;
            } else if (inItems && line.startsWith("    name: ")) {
                String name = line.substring("    name: ".length());
                name =
                        name.startsWith("\"")
                                ? name.substring(1, name.length() - 1)
                                : name; // a quoted name
                named++;
                add(listed, name, line);
            }
        }
        assertEquals(named, entries, "one name per item");
        return listed;
    }

    /**
     * The names in a protobuf list, read as a stream: the envelope's {@code raw} (field 2) is the
     * list message, whose {@code items} (field 2) are ConfigMaps with their {@code metadata.name}
     * at 1.1.
     */
    public static Set<String> protobufNames(InputStream body) throws IOException {
        assertEquals("6b387300", HexFormat.of().formatHex(body.readNBytes(4)), "the k8s\\0 magic");
        CodedInputStream in = CodedInputStream.newInstance(body);
        Set<String> listed = new HashSet<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) != 2) {
                in.skipField(tag);
                continue;
            }
            int end = in.pushLimit(in.readRawVarint32());
            while (!in.isAtEnd()) {
                int itemTag = in.readTag();
                if (WireFormat.getTagFieldNumber(itemTag) != 2) {
                    in.skipField(itemTag);
                    continue;
                }
                String name = nameOf(in.readByteArray());
                add(listed, name, name);
            }
            in.popLimit(end);
        }
        return listed;
    }

    private static String nameOf(byte[] configMap) throws IOException {
        CodedInputStream item = CodedInputStream.newInstance(configMap);
        for (int tag = item.readTag(); tag != 0; tag = item.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == 1) {
                CodedInputStream meta = CodedInputStream.newInstance(item.readByteArray());
                for (int t = meta.readTag(); t != 0; t = meta.readTag()) {
                    if (WireFormat.getTagFieldNumber(t) == 1) {
                        return meta.readString();
                    }
                    meta.skipField(t);
                }
            } else {
                item.skipField(tag);
            }
        }
        return "";
    }
}
