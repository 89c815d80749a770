package io.kubepekko.api.selector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A field selector as Kubernetes' {@code fields.Selector}: an AND of {@code label=value} / {@code
 * label!=value} terms over an object's selectable fields. {@link #parse} reads the query syntax;
 * {@link #forType} checks the labels against a resource type and binds how that type reads them,
 * after which {@link #matches} applies Kubernetes' per-kind quirks.
 */
public final class FieldSelector {

    /** One term. {@code ==} parses to the same term as {@code =}. */
    public record Term(String label, boolean negated, String value) {
        @Override
        public String toString() {
            return label + (negated ? "!=" : "=") + escape(value);
        }
    }

    private static final FieldSelector EVERYTHING =
            new FieldSelector(List.of(), FieldLabels.GENERIC);
    private static final String[] OPERATORS = {"!=", "==", "="};

    private final List<Term> terms;
    private final FieldLabels labels;

    private FieldSelector(List<Term> terms, FieldLabels labels) {
        this.terms = List.copyOf(terms);
        this.labels = labels;
    }

    /** The selector that matches every object. */
    public static FieldSelector everything() {
        return EVERYTHING;
    }

    /**
     * Parses {@code a=b,c!=d}. Values may escape {@code \}, {@code ,} and {@code =} with a
     * backslash; labels cannot be escaped and end at the first operator. Terms are kept sorted by
     * their source text, as Kubernetes sorts them.
     *
     * @throws ApiException 400 BadRequest with kube-apiserver's message for an unparsable term or
     *     escape
     */
    public static FieldSelector parse(String selector) {
        String s = selector == null ? "" : selector;
        List<String> parts = splitTerms(s);
        Collections.sort(parts);
        List<Term> terms = new ArrayList<>();
        for (String part : parts) {
            if (part.isEmpty()) {
                continue;
            }
            Term term = splitTerm(part);
            if (term == null) {
                throw ApiStatus.badRequest(
                                "invalid selector: '" + s + "'; can't understand '" + part + "'")
                        .exception();
            }
            terms.add(term);
        }
        return terms.isEmpty() ? EVERYTHING : new FieldSelector(terms, FieldLabels.GENERIC);
    }

    /**
     * Checks every label against {@code type} (in term order, reporting the first unsupported one)
     * and returns the selector bound to how that type reads its fields.
     *
     * @throws ApiException 400 BadRequest, {@code field label not supported: <label>} for kinds
     *     with selectable fields and custom resources, Kubernetes' default-conversion message for
     *     the other built-ins
     */
    public FieldSelector forType(ResourceType type) {
        FieldLabels bound = FieldLabels.of(type);
        List<Term> converted = new ArrayList<>(terms.size());
        for (Term t : terms) {
            converted.add(new Term(bound.canonical(t.label()), t.negated(), t.value()));
        }
        return new FieldSelector(converted, bound);
    }

    /** Whether {@code object} satisfies every term. */
    public boolean matches(JsonNode object) {
        for (Term t : terms) {
            boolean equal = labels.valueOf(object, t.label()).equals(t.value());
            if (equal == t.negated()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether pre-extracted label values (from {@link #valueReader}) satisfy every term. A label
     * missing from {@code values} reads as empty, as an absent plain path does in {@link #matches}.
     */
    public boolean matchesValues(Map<String, String> values) {
        for (Term t : terms) {
            boolean equal = values.getOrDefault(t.label(), "").equals(t.value());
            if (equal == t.negated()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads every field-selector label {@code type} supports ({@code metadata.name}, {@code
     * metadata.namespace} where accepted, and its selectable fields, with Kubernetes' per-kind
     * quirks) from an object into an immutable map, for {@link #matchesValues} on a selector bound
     * to the same type. A watch cache calls it once per stored object instead of keeping the tree.
     */
    public static Function<JsonNode, Map<String, String>> valueReader(ResourceType type) {
        return FieldLabels.of(type)::values;
    }

    /**
     * The dotted JSON paths {@link #valueReader} reads for {@code type}: everything else may be
     * skipped.
     */
    public static Set<String> valuePaths(ResourceType type) {
        return FieldLabels.of(type).paths();
    }

    /**
     * The name a {@code metadata.name=} term pins, so a watch cache can serve one key instead of a
     * scan.
     */
    public Optional<String> exactName() {
        return terms.stream()
                .filter(t -> !t.negated() && t.label().equals("metadata.name"))
                .map(Term::value)
                .findFirst();
    }

    public boolean isEmpty() {
        return terms.isEmpty();
    }

    public List<Term> terms() {
        return terms;
    }

    /** Kubernetes' string form: terms in order, {@code ==} shown as {@code =}, values escaped. */
    @Override
    public String toString() {
        return terms.stream().map(Term::toString).collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSelector other && terms.equals(other.terms);
    }

    @Override
    public int hashCode() {
        return terms.hashCode();
    }

    /** Splits on commas not escaped by a backslash; escapes stay in the terms. */
    private static List<String> splitTerms(String s) {
        List<String> out = new ArrayList<>();
        if (s.isEmpty()) {
            return out;
        }
        int start = 0;
        boolean escaped = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == ',') {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /**
     * Splits at the first operator; {@code !=} and {@code ==} win over {@code =} at the same
     * position.
     */
    private static Term splitTerm(String term) {
        for (int i = 0; i < term.length(); i++) {
            for (String op : OPERATORS) {
                if (term.startsWith(op, i)) {
                    return new Term(
                            term.substring(0, i),
                            op.equals("!="),
                            unescape(term.substring(i + op.length())));
                }
            }
        }
        return null;
    }

    private static String unescape(String value) {
        if (value.indexOf('\\') < 0 && value.indexOf(',') < 0 && value.indexOf('=') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        boolean escaped = false;
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            i += Character.charCount(c);
            if (escaped) {
                if (c != '\\' && c != ',' && c != '=') {
                    throw invalidEscape("\\" + Character.toString(c));
                }
                out.appendCodePoint(c);
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == ',' || c == '=') {
                // Go formats the rune with %v, i.e. as its number.
                throw ApiStatus.badRequest(
                                "invalid field selector: unescaped character in value: " + c)
                        .exception();
            } else {
                out.appendCodePoint(c);
            }
        }
        if (escaped) {
            throw invalidEscape("\\");
        }
        return out.toString();
    }

    private static ApiException invalidEscape(String sequence) {
        return ApiStatus.badRequest("invalid field selector: invalid escape sequence: " + sequence)
                .exception();
    }

    /** Escapes a literal value for use in a selector string. */
    public static String escape(String value) {
        return value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=");
    }
}
