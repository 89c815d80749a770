package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of field paths as server-side apply tracks ownership, in Kubernetes' FieldsV1 trie form:
 * every key is one path element ({@code f:<field>}, {@code k:<key fields as JSON>}, {@code
 * v:<value>}, {@code i:<index>}); a node is a member itself when it is a leaf or carries {@code
 * "."}. Immutable.
 */
public final class FieldSet {

    /** Field names first, then keys, values and indexes, as Kubernetes orders path elements. */
    static final Comparator<String> ORDER =
            Comparator.<String>comparingInt(FieldSet::rank)
                    .thenComparingLong(FieldSet::index)
                    .thenComparing(Comparator.naturalOrder());

    public static final FieldSet EMPTY = new FieldSet(false, new TreeMap<>(ORDER));

    private final boolean member;
    private final TreeMap<String, FieldSet> children;

    private FieldSet(boolean member, TreeMap<String, FieldSet> children) {
        this.member = member;
        this.children = children;
    }

    /**
     * An {@code i:} element's index, so {@code i:2} sorts before {@code i:10}; 0 for other elements
     * and for a malformed index (managedFields a client sent are taken as they are, and must not
     * fail a write).
     */
    private static long index(String element) {
        if (!element.startsWith("i:")) {
            return 0;
        }
        try {
            return Long.parseLong(element.substring(2));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * Compared on every step of every set operation, so it reads two chars rather than cutting a
     * prefix.
     */
    private static int rank(String element) {
        if (element.length() < 2 || element.charAt(1) != ':') {
            return 4;
        }
        return switch (element.charAt(0)) {
            case 'f' -> 0;
            case 'k' -> 1;
            case 'v' -> 2;
            case 'i' -> 3;
            default -> 4;
        };
    }

    /** The set holding the one path {@code path}. */
    public static FieldSet of(List<String> path) {
        FieldSet node = new FieldSet(true, new TreeMap<>(ORDER));
        for (int i = path.size() - 1; i >= 0; i--) {
            TreeMap<String, FieldSet> c = new TreeMap<>(ORDER);
            c.put(path.get(i), node);
            node = new FieldSet(false, c);
        }
        return node;
    }

    /**
     * Builds a set path by path without an intermediate set per path (the write path computes
     * these).
     */
    public static final class Builder {
        private boolean member;
        private final TreeMap<String, Builder> children = new TreeMap<>(ORDER);

        public Builder add(List<String> path) {
            Builder node = this;
            for (String element : path) {
                node = node.children.computeIfAbsent(element, e -> new Builder());
            }
            node.member = true;
            return this;
        }

        /**
         * The node at {@code element} below this one, made when absent (a path built step by step).
         */
        public Builder child(String element) {
            return children.computeIfAbsent(element, e -> new Builder());
        }

        /** Marks this node's own path as in the set. */
        public Builder member() {
            member = true;
            return this;
        }

        /**
         * The set; nodes that hold no member (a walk that found nothing below them) are left out.
         */
        public FieldSet build() {
            TreeMap<String, FieldSet> c = new TreeMap<>(ORDER);
            children.forEach(
                    (k, v) -> {
                        FieldSet child = v.build();
                        if (!child.isEmpty()) {
                            c.put(k, child);
                        }
                    });
            return new FieldSet(member, c);
        }
    }

    /** Whether this node's own path is in the set (a leaf, or a node carrying {@code "."}). */
    boolean member() {
        return member;
    }

    /** The child nodes by path element, in Kubernetes' order. */
    Map<String, FieldSet> children() {
        return Collections.unmodifiableMap(children);
    }

    /** The node at {@code element}, or null. */
    FieldSet child(String element) {
        return children.get(element);
    }

    public boolean isEmpty() {
        return !member && children.isEmpty();
    }

    public FieldSet union(FieldSet other) {
        TreeMap<String, FieldSet> c = new TreeMap<>(children);
        other.children.forEach((k, v) -> c.merge(k, v, FieldSet::union));
        return new FieldSet(member || other.member, c);
    }

    public FieldSet difference(FieldSet other) {
        TreeMap<String, FieldSet> c = new TreeMap<>(ORDER);
        children.forEach(
                (k, v) -> {
                    FieldSet o = other.children.get(k);
                    FieldSet d = o == null ? v : v.difference(o);
                    if (!d.isEmpty()) {
                        c.put(k, d);
                    }
                });
        return new FieldSet(member && !other.member, c);
    }

    public FieldSet intersection(FieldSet other) {
        TreeMap<String, FieldSet> c = new TreeMap<>(ORDER);
        children.forEach(
                (k, v) -> {
                    FieldSet o = other.children.get(k);
                    if (o != null) {
                        FieldSet i = v.intersection(o);
                        if (!i.isEmpty()) {
                            c.put(k, i);
                        }
                    }
                });
        return new FieldSet(member && other.member, c);
    }

    /** This set without the subtree at {@code element} (e.g. {@code f:status}). */
    public FieldSet without(String element) {
        TreeMap<String, FieldSet> c = new TreeMap<>(children);
        c.remove(element);
        return new FieldSet(member, c);
    }

    /** Only the subtree at {@code element}. */
    public FieldSet only(String element) {
        TreeMap<String, FieldSet> c = new TreeMap<>(ORDER);
        FieldSet child = children.get(element);
        if (child != null) {
            c.put(element, child);
        }
        return new FieldSet(false, c);
    }

    /** The set in FieldsV1 form ({@code {"f:metadata":{"f:labels":{".":{},"f:app":{}}}}}). */
    public ObjectNode toFieldsV1() {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        children.forEach(
                (k, v) -> {
                    ObjectNode node = v.toFieldsV1();
                    if (v.member && !v.children.isEmpty()) {
                        ObjectNode withDot = JsonNodeFactory.instance.objectNode();
                        withDot.putObject(".");
                        withDot.setAll(node);
                        node = withDot;
                    }
                    out.set(k, node);
                });
        return out;
    }

    /** Reads a FieldsV1 trie. */
    public static FieldSet fromFieldsV1(JsonNode fields) {
        return read(fields, false);
    }

    private static FieldSet read(JsonNode node, boolean leafMember) {
        TreeMap<String, FieldSet> c = new TreeMap<>(ORDER);
        boolean member = leafMember;
        Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals(".")) {
                member = true;
            } else {
                c.put(e.getKey(), read(e.getValue(), e.getValue().isEmpty()));
            }
        }
        return new FieldSet(member, c);
    }

    /** Every member path as its path elements, in the set's order. */
    public List<List<String>> memberPaths() {
        List<List<String>> out = new ArrayList<>();
        collectPaths(new ArrayList<>(), out);
        return out;
    }

    private void collectPaths(List<String> prefix, List<List<String>> out) {
        children.forEach(
                (k, v) -> {
                    prefix.add(k);
                    if (v.member) {
                        out.add(List.copyOf(prefix));
                    }
                    v.collectPaths(prefix, out);
                    prefix.remove(prefix.size() - 1);
                });
    }

    /**
     * Every member path, as dotted strings ({@code f:metadata.f:labels.f:app}), for tests and
     * messages.
     */
    public List<String> paths() {
        List<String> out = new ArrayList<>();
        collect("", out);
        return out;
    }

    private void collect(String prefix, List<String> out) {
        children.forEach(
                (k, v) -> {
                    String p = prefix.isEmpty() ? k : prefix + "." + k;
                    if (v.member) {
                        out.add(p);
                    }
                    v.collect(p, out);
                });
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet f && f.member == member && f.children.equals(children);
    }

    @Override
    public int hashCode() {
        return children.hashCode() * 31 + (member ? 1 : 0);
    }

    @Override
    public String toString() {
        return toFieldsV1().toString();
    }
}
