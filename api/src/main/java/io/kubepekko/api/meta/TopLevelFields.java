package io.kubepekko.api.meta;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renames and reorders the top-level fields of an object's JSON without parsing its values: each
 * value is copied as the bytes it already is. Serving a list through a version that differs from
 * the stored one only in field names (events.k8s.io/v1 Events over core/v1) converts every item;
 * parsing each into a tree and writing it again cost several times the list itself, and even
 * Jackson's tokenizer, which canonicalises every nested field name it skips, most of it.
 *
 * <p>So the top level is read by a scanner that knows only where a JSON value ends (strings with
 * their escapes, nesting of objects and arrays, scalars up to the next delimiter): enough for JSON
 * this server wrote itself, which is all it is given (stored objects, whose bytes came out of
 * Jackson). The output is byte for byte what {@link Json#bytes} writes for the same renaming done
 * on the tree, which the tests check over random objects.
 */
public final class TopLevelFields {
    private TopLevelFields() {}

    /** Where one top-level field's quoted name and value are, and its served name. */
    private record Field(String name, int nameStart, int nameEnd, int valueStart, int valueEnd) {}

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
        Map<String, Field> byName = new HashMap<>();
        List<Field> unordered = new ArrayList<>();
        try {
            scan(json, names, order, byName, unordered);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not one JSON object: it ends too early");
        }
        byte[] head =
                ("{\"kind\":\"" + kind + "\",\"apiVersion\":\"" + apiVersion + "\"")
                        .getBytes(StandardCharsets.US_ASCII);
        List<Field> fields = new ArrayList<>(byName.size());
        for (String name : order) {
            Field f = byName.get(name);
            if (f != null) {
                fields.add(f);
            }
        }
        fields.addAll(unordered);
        List<byte[]> renamed = new ArrayList<>(fields.size());
        int size = head.length + 1;
        for (Field f : fields) {
            byte[] quoted = f.nameStart() < 0 ? quoted(f.name()) : null;
            renamed.add(quoted);
            int nameLength = quoted != null ? quoted.length : f.nameEnd() - f.nameStart();
            size += 1 + nameLength + 1 + (f.valueEnd() - f.valueStart());
        }
        byte[] out = new byte[size];
        System.arraycopy(head, 0, out, 0, head.length);
        int at = head.length;
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            out[at++] = ',';
            byte[] quoted = renamed.get(i);
            if (quoted != null) {
                System.arraycopy(quoted, 0, out, at, quoted.length);
                at += quoted.length;
            } else {
                int length = f.nameEnd() - f.nameStart();
                System.arraycopy(json, f.nameStart(), out, at, length);
                at += length;
            }
            out[at++] = ':';
            int length = f.valueEnd() - f.valueStart();
            System.arraycopy(json, f.valueStart(), out, at, length);
            at += length;
        }
        out[at] = '}';
        return out;
    }

    /**
     * Reads the top level: each field's name and value span, kept by served name ({@code byName}, a
     * later duplicate winning as it does in a tree) and, for names {@code order} does not list, in
     * their order of arrival.
     */
    private static void scan(
            byte[] b,
            Map<String, String> names,
            List<String> order,
            Map<String, Field> byName,
            List<Field> unordered) {
        int i = skipSpace(b, 0);
        expect(b, i, '{');
        i = skipSpace(b, i + 1);
        if (b[i] != '}') {
            while (true) {
                expect(b, i, '"');
                int nameStart = i;
                int nameEnd = stringEnd(b, i);
                String stored = name(b, nameStart, nameEnd);
                i = skipSpace(b, nameEnd);
                expect(b, i, ':');
                int valueStart = skipSpace(b, i + 1);
                int valueEnd = valueEnd(b, valueStart);
                if (!stored.equals("kind") && !stored.equals("apiVersion")) {
                    String served = names.getOrDefault(stored, stored);
                    boolean same = served.equals(stored);
                    Field f =
                            new Field(
                                    served,
                                    same ? nameStart : -1,
                                    same ? nameEnd : -1,
                                    valueStart,
                                    valueEnd);
                    Field before = byName.put(served, f);
                    if (!order.contains(served)) {
                        if (before == null) {
                            unordered.add(f);
                        } else {
                            unordered.set(unordered.indexOf(before), f);
                        }
                    }
                }
                i = skipSpace(b, valueEnd);
                if (b[i] == ',') {
                    i = skipSpace(b, i + 1);
                    continue;
                }
                expect(b, i, '}');
                break;
            }
        }
        if (skipSpace(b, i + 1) != b.length) {
            throw new IllegalArgumentException("not one JSON object: more follows it");
        }
    }

    /** The end (exclusive) of the value that starts at {@code i}. */
    private static int valueEnd(byte[] b, int i) {
        byte c = b[i];
        if (c == '"') {
            return stringEnd(b, i);
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            while (true) {
                c = b[i];
                if (c == '"') {
                    i = stringEnd(b, i);
                    continue;
                }
                if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0) {
                        return i + 1;
                    }
                }
                i++;
            }
        }
        // A number, true, false or null: up to the next delimiter.
        int start = i;
        while (i < b.length && !isDelimiter(b[i])) {
            i++;
        }
        if (i == start) {
            throw new IllegalArgumentException("not one JSON object: no value at " + start);
        }
        return i;
    }

    /**
     * The end (exclusive) of the string whose opening quote is at {@code i}. The bytes of a
     * multi-byte UTF-8 character are all above 0x7f, so they are never taken for a quote or a
     * backslash.
     */
    private static int stringEnd(byte[] b, int i) {
        i++;
        while (true) {
            byte c = b[i];
            if (c == '\\') {
                i += 2;
            } else if (c == '"') {
                return i + 1;
            } else {
                i++;
            }
        }
    }

    /** A quoted name's text: its escapes, when it has any, undone by Jackson. */
    private static String name(byte[] b, int start, int end) {
        for (int i = start + 1; i < end - 1; i++) {
            if (b[i] == '\\') {
                try {
                    return Json.MAPPER.readValue(b, start, end - start, String.class);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new String(b, start + 1, end - start - 2, StandardCharsets.UTF_8);
    }

    private static byte[] quoted(String name) {
        byte[] escaped = JsonStringEncoder.getInstance().quoteAsUTF8(name);
        byte[] out = new byte[escaped.length + 2];
        out[0] = '"';
        System.arraycopy(escaped, 0, out, 1, escaped.length);
        out[out.length - 1] = '"';
        return out;
    }

    private static int skipSpace(byte[] b, int i) {
        while (i < b.length && isSpace(b[i])) {
            i++;
        }
        return i;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private static boolean isDelimiter(byte c) {
        return c == ',' || c == '}' || c == ']' || isSpace(c);
    }

    private static void expect(byte[] b, int i, char c) {
        if (i >= b.length || b[i] != c) {
            throw new IllegalArgumentException("not one JSON object: expected '" + c + "' at " + i);
        }
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
