package io.kubepekko.api.meta;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One renaming and reordering of an object's top-level fields, applied to JSON without parsing its
 * values: each value is copied as the bytes it already is. Serving a list through a version that
 * differs from the stored one only in field names (events.k8s.io/v1 Events over core/v1) converts
 * every item; parsing each into a tree and writing it again cost several times the list itself, and
 * even Jackson's tokenizer, which canonicalises every nested field name it skips, most of it.
 *
 * <p>So the top level is read by a scanner that knows only where a JSON value ends (strings with
 * their escapes, nesting of objects and arrays, scalars up to the next delimiter): enough for JSON
 * this server wrote itself, which is all it is given (stored objects, whose bytes came out of
 * Jackson). Names are matched as bytes against the ones the renaming knows. The output is byte for
 * byte what {@link Json#bytes} writes for the same renaming done on a tree (a later duplicate
 * winning, as in a tree), which the tests check over random objects.
 */
public final class TopLevelFields {

    private static final byte[] KIND = "kind".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] API_VERSION = "apiVersion".getBytes(StandardCharsets.US_ASCII);

    /** The output's fields in order (type meta excluded), each as its quoted name. */
    private final byte[][] slotNames;

    /** Stored names the renaming knows, their unquoted bytes, and the slot each goes to. */
    private final byte[][] knownNames;

    private final int[] knownSlots;

    /** The same by text, for the rare name written with escapes. */
    private final Map<String, Integer> slotsByStoredName;

    /** Served name of each stored name the renaming renames (for fields no slot holds). */
    private final Map<String, String> names;

    private TopLevelFields(Map<String, String> names, List<String> order) {
        this.names = Map.copyOf(names);
        Set<String> slots = new LinkedHashSet<>(order);
        slots.remove("kind");
        slots.remove("apiVersion");
        List<String> slotList = List.copyOf(slots);
        slotNames = new byte[slotList.size()][];
        for (int i = 0; i < slotNames.length; i++) {
            slotNames[i] = quoted(slotList.get(i));
        }
        // A stored name goes where its served name (renamed, or itself) is ordered: every renamed
        // name and every ordered name, which a stored object may hold under its own name too.
        Map<String, Integer> byStored = new HashMap<>();
        Set<String> candidates = new LinkedHashSet<>(names.keySet());
        candidates.addAll(slotList);
        for (String stored : candidates) {
            int slot = slotList.indexOf(names.getOrDefault(stored, stored));
            if (slot >= 0 && !stored.equals("kind") && !stored.equals("apiVersion")) {
                byStored.put(stored, slot);
            }
        }
        slotsByStoredName = Map.copyOf(byStored);
        knownNames = new byte[byStored.size()][];
        knownSlots = new int[byStored.size()];
        int i = 0;
        for (Map.Entry<String, Integer> e : byStored.entrySet()) {
            knownNames[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
            knownSlots[i] = e.getValue();
            i++;
        }
    }

    /**
     * A renaming: top-level fields renamed by {@code names} (stored name to served name), written
     * in {@code order} (served names; {@code kind} and {@code apiVersion} are always first), then
     * those {@code order} does not name in the order they came.
     */
    public static TopLevelFields renaming(Map<String, String> names, List<String> order) {
        return new TopLevelFields(names, order);
    }

    /**
     * {@code json}'s object with {@code kind} and {@code apiVersion} first (the stored ones
     * dropped), then its other fields renamed and ordered.
     *
     * @param kind a kind name (letters and digits only)
     * @param apiVersion a group version (letters, digits, '.', '-' and '/' only)
     * @throws IllegalArgumentException when {@code json} is not one JSON object
     */
    public byte[] rewrite(byte[] json, String kind, String apiVersion) {
        requirePlain(kind);
        requirePlain(apiVersion);
        int slots = slotNames.length;
        // Value spans per slot, then (growing) per unordered field with its quoted name's span or,
        // when renamed, the new quoted name.
        int[] slotStart = new int[slots];
        int[] slotEnd = new int[slots];
        Arrays.fill(slotStart, -1);
        Extra extra = new Extra();
        try {
            scan(json, slotStart, slotEnd, extra);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("not one JSON object: it ends too early");
        }
        byte[] head =
                ("{\"kind\":\"" + kind + "\",\"apiVersion\":\"" + apiVersion + "\"")
                        .getBytes(StandardCharsets.US_ASCII);
        int size = head.length + 1;
        for (int s = 0; s < slots; s++) {
            if (slotStart[s] >= 0) {
                size += 2 + slotNames[s].length + slotEnd[s] - slotStart[s];
            }
        }
        for (int e = 0; e < extra.count; e++) {
            size += 2 + extra.nameLength(e) + extra.valueEnd[e] - extra.valueStart[e];
        }
        byte[] out = new byte[size];
        System.arraycopy(head, 0, out, 0, head.length);
        int at = head.length;
        for (int s = 0; s < slots; s++) {
            if (slotStart[s] >= 0) {
                at =
                        field(
                                out,
                                at,
                                slotNames[s],
                                0,
                                slotNames[s].length,
                                json,
                                slotStart[s],
                                slotEnd[s]);
            }
        }
        for (int e = 0; e < extra.count; e++) {
            at =
                    extra.renamed[e] != null
                            ? field(
                                    out,
                                    at,
                                    extra.renamed[e],
                                    0,
                                    extra.renamed[e].length,
                                    json,
                                    extra.valueStart[e],
                                    extra.valueEnd[e])
                            : field(
                                    out,
                                    at,
                                    json,
                                    extra.nameStart[e],
                                    extra.nameEnd[e],
                                    json,
                                    extra.valueStart[e],
                                    extra.valueEnd[e]);
        }
        out[at] = '}';
        return out;
    }

    /** The fields no slot holds, in their order of arrival. */
    private static final class Extra {
        int count;
        int[] nameStart = new int[4];
        int[] nameEnd = new int[4];
        int[] valueStart = new int[4];
        int[] valueEnd = new int[4];
        byte[][] renamed = new byte[4][];
        List<String> text = new ArrayList<>();

        void add(String name, int ns, int ne, byte[] quotedRenamed, int vs, int ve) {
            for (int e = 0; e < count; e++) {
                if (text.get(e).equals(name)) {
                    // A duplicate name: the later value in the earlier place, as a tree keeps it.
                    valueStart[e] = vs;
                    valueEnd[e] = ve;
                    return;
                }
            }
            if (count == nameStart.length) {
                int n = count * 2;
                nameStart = Arrays.copyOf(nameStart, n);
                nameEnd = Arrays.copyOf(nameEnd, n);
                valueStart = Arrays.copyOf(valueStart, n);
                valueEnd = Arrays.copyOf(valueEnd, n);
                renamed = Arrays.copyOf(renamed, n);
            }
            nameStart[count] = ns;
            nameEnd[count] = ne;
            renamed[count] = quotedRenamed;
            valueStart[count] = vs;
            valueEnd[count] = ve;
            text.add(name);
            count++;
        }

        int nameLength(int e) {
            return renamed[e] != null ? renamed[e].length : nameEnd[e] - nameStart[e];
        }
    }

    private static int field(
            byte[] out,
            int at,
            byte[] name,
            int nameFrom,
            int nameTo,
            byte[] json,
            int valueFrom,
            int valueTo) {
        out[at++] = ',';
        System.arraycopy(name, nameFrom, out, at, nameTo - nameFrom);
        at += nameTo - nameFrom;
        out[at++] = ':';
        System.arraycopy(json, valueFrom, out, at, valueTo - valueFrom);
        return at + valueTo - valueFrom;
    }

    /** Reads the top level into the slots' spans and the unordered fields. */
    private void scan(byte[] b, int[] slotStart, int[] slotEnd, Extra extra) {
        int i = skipSpace(b, 0);
        expect(b, i, '{');
        i = skipSpace(b, i + 1);
        if (b[i] != '}') {
            while (true) {
                expect(b, i, '"');
                int nameStart = i;
                int nameEnd = stringEnd(b, i);
                i = skipSpace(b, nameEnd);
                expect(b, i, ':');
                int valueStart = skipSpace(b, i + 1);
                int valueEnd = valueEnd(b, valueStart);
                place(b, nameStart, nameEnd, valueStart, valueEnd, slotStart, slotEnd, extra);
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

    /** Puts one field where it belongs: dropped (type meta), a slot, or the unordered rest. */
    private void place(
            byte[] b,
            int nameStart,
            int nameEnd,
            int valueStart,
            int valueEnd,
            int[] slotStart,
            int[] slotEnd,
            Extra extra) {
        int from = nameStart + 1;
        int to = nameEnd - 1;
        if (!hasEscape(b, from, to)) {
            if (equals(b, from, to, KIND) || equals(b, from, to, API_VERSION)) {
                return;
            }
            for (int k = 0; k < knownNames.length; k++) {
                if (equals(b, from, to, knownNames[k])) {
                    slotStart[knownSlots[k]] = valueStart;
                    slotEnd[knownSlots[k]] = valueEnd;
                    return;
                }
            }
        }
        String name = text(b, nameStart, nameEnd);
        if (name.equals("kind") || name.equals("apiVersion")) {
            return;
        }
        Integer slot = slotsByStoredName.get(name);
        if (slot != null) {
            slotStart[slot] = valueStart;
            slotEnd[slot] = valueEnd;
            return;
        }
        String served = names.get(name);
        extra.add(
                served != null ? served : name,
                nameStart,
                nameEnd,
                served != null ? quoted(served) : null,
                valueStart,
                valueEnd);
    }

    private static boolean hasEscape(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\\') {
                return true;
            }
        }
        return false;
    }

    private static boolean equals(byte[] b, int from, int to, byte[] name) {
        return to - from == name.length && Arrays.equals(b, from, to, name, 0, name.length);
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

    /** A quoted name's text, its escapes undone by Jackson when it has any. */
    private static String text(byte[] b, int start, int end) {
        if (!hasEscape(b, start + 1, end - 1)) {
            return new String(b, start + 1, end - start - 2, StandardCharsets.UTF_8);
        }
        try {
            return Json.MAPPER.readValue(b, start, end - start, String.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
