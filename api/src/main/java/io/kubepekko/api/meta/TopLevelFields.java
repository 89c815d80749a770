package io.kubepekko.api.meta;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renames and reorders the top-level fields of an object's JSON without building its tree: each
 * value is copied as the bytes it already is. Serving a list through a version that differs from
 * the stored one only in field names (events.k8s.io/v1 Events over core/v1) converts every item;
 * parsing each into a tree and writing it again cost several times the list itself.
 *
 * <p>The input is JSON as this server writes it (compact, as Jackson writes a tree); the output is
 * byte for byte what {@link Json#bytes} writes for the same renaming done on the tree, which the
 * tests check over random objects.
 */
public final class TopLevelFields {
    private TopLevelFields() {}

    private static final JsonFactory FACTORY = Json.MAPPER.getFactory();

    /**
     * {@code json}'s object with {@code kind} and {@code apiVersion} first (the stored ones
     * dropped), then its other fields renamed by {@code names} in {@code order}, then those {@code
     * order} does not name in the order they came.
     *
     * @param kind a kind name (letters and digits only)
     * @param apiVersion a group version (letters, digits, '.', '-' and '/' only)
     * @throws IllegalArgumentException when {@code json} is not one JSON object
     */
    public static byte[] rewrite(
            byte[] json,
            String kind,
            String apiVersion,
            Map<String, String> names,
            List<String> order) {
        requirePlain(kind);
        requirePlain(apiVersion);
        Map<String, int[]> spans = new HashMap<>();
        List<String> unordered = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object");
            }
            JsonToken token = p.nextToken();
            while (token == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                int start = (int) p.currentTokenLocation().getByteOffset();
                p.skipChildren();
                token = p.nextToken();
                // The value ends where the separator before the next field (or the object's end)
                // begins; whitespace and the comma between are not part of it.
                int end = trimmedEnd(json, start, (int) p.currentTokenLocation().getByteOffset());
                if (name.equals("kind") || name.equals("apiVersion")) {
                    continue;
                }
                String renamed = names.getOrDefault(name, name);
                spans.put(renamed, new int[] {start, end});
                if (!order.contains(renamed)) {
                    unordered.add(renamed);
                }
            }
            if (token != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new IllegalArgumentException("not one JSON object");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(json.length + 64);
        out.writeBytes(
                ("{\"kind\":\"" + kind + "\",\"apiVersion\":\"" + apiVersion + "\"")
                        .getBytes(StandardCharsets.US_ASCII));
        for (String name : order) {
            field(out, json, name, spans.get(name));
        }
        for (String name : unordered) {
            field(out, json, name, spans.get(name));
        }
        out.write('}');
        return out.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, byte[] json, String name, int[] span) {
        if (span == null) {
            return;
        }
        out.write(',');
        out.write('"');
        out.writeBytes(JsonStringEncoder.getInstance().quoteAsUTF8(name));
        out.write('"');
        out.write(':');
        out.write(json, span[0], span[1] - span[0]);
    }

    private static int trimmedEnd(byte[] json, int start, int next) {
        int end = next;
        while (end > start && isSpaceOrComma(json[end - 1])) {
            end--;
        }
        return end;
    }

    private static boolean isSpaceOrComma(byte b) {
        return b == ',' || b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private static void requirePlain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean plain =
                    (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '.'
                            || c == '-'
                            || c == '/';
            if (!plain) {
                throw new IllegalArgumentException("not a plain name: " + s);
            }
        }
    }
}
