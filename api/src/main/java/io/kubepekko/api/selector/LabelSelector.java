package io.kubepekko.api.selector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A label selector as Kubernetes' {@code labels.Selector}: an AND of requirements on label keys.
 * Built from the query-string syntax ({@link #parse}) or from a {@code metav1.LabelSelector} object
 * ({@link #fromObject}); {@link #toString()} is Kubernetes' canonical form (requirements sorted by
 * key, set values sorted), which clients compare and {@code /scale} reports.
 */
public final class LabelSelector {

    /** Requirement operators with the spelling Kubernetes uses in messages. */
    public enum Operator {
        IN("in"),
        NOT_IN("notin"),
        EQUALS("="),
        DOUBLE_EQUALS("=="),
        NOT_EQUALS("!="),
        GREATER_THAN("gt"),
        LESS_THAN("lt"),
        EXISTS("exists"),
        DOES_NOT_EXIST("!");

        final String spelling;

        Operator(String spelling) {
            this.spelling = spelling;
        }
    }

    /**
     * One requirement: {@code key op values}. Values keep the order they were given in; the string
     * form sorts them.
     */
    public record Requirement(String key, Operator operator, List<String> values) {
        public Requirement {
            values = List.copyOf(values);
        }

        public boolean matches(Map<String, String> labels) {
            String actual = labels.get(key);
            return switch (operator) {
                case IN, EQUALS, DOUBLE_EQUALS -> actual != null && values.contains(actual);
                case NOT_IN, NOT_EQUALS -> actual == null || !values.contains(actual);
                case EXISTS -> actual != null;
                case DOES_NOT_EXIST -> actual == null;
                case GREATER_THAN, LESS_THAN -> compares(actual);
            };
        }

        private boolean compares(String actual) {
            if (actual == null || values.size() != 1) {
                return false;
            }
            try {
                long have = Long.parseLong(actual);
                long want = Long.parseLong(values.get(0));
                return operator == Operator.GREATER_THAN ? have > want : have < want;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder();
            if (operator == Operator.DOES_NOT_EXIST) {
                s.append('!');
            }
            s.append(key);
            switch (operator) {
                case EXISTS, DOES_NOT_EXIST -> {
                    return s.toString();
                }
                case EQUALS -> s.append('=');
                case DOUBLE_EQUALS -> s.append("==");
                case NOT_EQUALS -> s.append("!=");
                case GREATER_THAN -> s.append('>');
                case LESS_THAN -> s.append('<');
                case IN -> s.append(" in (");
                case NOT_IN -> s.append(" notin (");
            }
            s.append(values.stream().sorted().collect(Collectors.joining(",")));
            if (operator == Operator.IN || operator == Operator.NOT_IN) {
                s.append(')');
            }
            return s.toString();
        }
    }

    private static final LabelSelector EVERYTHING = new LabelSelector(List.of(), false);
    private static final LabelSelector NOTHING = new LabelSelector(List.of(), true);

    private final List<Requirement> requirements;
    private final boolean nothing;

    private LabelSelector(List<Requirement> requirements, boolean nothing) {
        List<Requirement> sorted = new ArrayList<>(requirements);
        // Stable, like the insertion sort Go uses for short slices, so equal keys keep their order.
        sorted.sort(Comparator.comparing(Requirement::key));
        this.requirements = List.copyOf(sorted);
        this.nothing = nothing;
    }

    /** The selector that matches every object (what an empty string parses to). */
    public static LabelSelector everything() {
        return EVERYTHING;
    }

    /** The selector that matches no object: what an absent {@code metav1.LabelSelector} means. */
    public static LabelSelector nothing() {
        return NOTHING;
    }

    /**
     * Parses the query-string syntax ({@code a=b,c!=d,e in (f,g),!h}).
     *
     * @throws ApiException 400 BadRequest with kube-apiserver's message for invalid syntax, keys or
     *     values
     */
    public static LabelSelector parse(String selector) {
        List<Requirement> parsed =
                new LabelSelectorParser(selector == null ? "" : selector).parse();
        return parsed.isEmpty() ? EVERYTHING : new LabelSelector(parsed, false);
    }

    /**
     * Converts a {@code metav1.LabelSelector} object ({@code matchLabels}, {@code
     * matchExpressions}), as {@code metav1.LabelSelectorAsSelector} does: a missing or null object
     * selects nothing, an empty one selects everything.
     *
     * @throws ApiException 400 BadRequest when a key, value or operator is invalid
     */
    public static LabelSelector fromObject(JsonNode labelSelector) {
        if (labelSelector == null || labelSelector.isMissingNode() || labelSelector.isNull()) {
            return NOTHING;
        }
        if (!labelSelector.isObject()) {
            throw ApiStatus.badRequest("label selector must be an object").exception();
        }
        try {
            List<Requirement> out = requirementsOf(labelSelector);
            return out.isEmpty() ? EVERYTHING : new LabelSelector(out, false);
        } catch (RequirementException e) {
            throw ApiStatus.badRequest(e.getMessage()).exception();
        }
    }

    private static List<Requirement> requirementsOf(JsonNode labelSelector) {
        List<Requirement> out = new ArrayList<>();
        JsonNode matchLabels = labelSelector.path("matchLabels");
        if (matchLabels.isObject()) {
            Map<String, String> sorted = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = matchLabels.properties().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                sorted.put(e.getKey(), textOf(e.getValue(), "matchLabels values must be strings"));
            }
            sorted.forEach((k, v) -> out.add(newRequirement(k, Operator.EQUALS, List.of(v))));
        }
        for (JsonNode expr : labelSelector.path("matchExpressions")) {
            String key = textOf(expr.path("key"), "matchExpressions key must be a string");
            String op = textOf(expr.path("operator"), "matchExpressions operator must be a string");
            List<String> values = new ArrayList<>();
            for (JsonNode v : expr.path("values")) {
                values.add(textOf(v, "matchExpressions values must be strings"));
            }
            Operator operator =
                    switch (op) {
                        case "In" -> Operator.IN;
                        case "NotIn" -> Operator.NOT_IN;
                        case "Exists" -> Operator.EXISTS;
                        case "DoesNotExist" -> Operator.DOES_NOT_EXIST;
                        default ->
                                throw ApiStatus.badRequest(
                                                FieldError.quote(op)
                                                        + " is not a valid label selector operator")
                                        .exception();
                    };
            out.add(newRequirement(key, operator, values));
        }
        return out;
    }

    /**
     * {@code metav1.FormatLabelSelector}: the string form for humans (printer columns), with {@code
     * <none>} for a selector that prints empty and {@code <error>} for an invalid one.
     */
    public static String format(JsonNode labelSelector) {
        try {
            String s = fromObject(labelSelector).toString();
            return s.isEmpty() ? "<none>" : s;
        } catch (ApiException e) {
            return "<error>";
        }
    }

    private static String textOf(JsonNode node, String problem) {
        if (node.isNull() || node.isMissingNode()) {
            return "";
        }
        if (!node.isTextual()) {
            throw ApiStatus.badRequest(problem).exception();
        }
        return node.textValue();
    }

    /**
     * {@code labels.NewRequirement}: validates key, operator arity and values, aggregating every
     * problem into one message the way Kubernetes' {@code field.ErrorList.ToAggregate} prints it.
     */
    static Requirement newRequirement(String key, Operator op, List<String> values) {
        List<FieldError> errors = new ArrayList<>();
        List<String> keyProblems = LabelRules.keyProblems(key);
        if (!keyProblems.isEmpty()) {
            errors.add(FieldError.invalid("key", key, String.join("; ", keyProblems)));
        }
        switch (op) {
            case IN, NOT_IN -> {
                if (values.isEmpty()) {
                    errors.add(
                            FieldError.invalid(
                                    "values",
                                    new GoStrings(values),
                                    "for 'in', 'notin' operators, values set can't be empty"));
                }
            }
            case EQUALS, DOUBLE_EQUALS, NOT_EQUALS -> {
                if (values.size() != 1) {
                    errors.add(
                            FieldError.invalid(
                                    "values",
                                    new GoStrings(values),
                                    "exact-match compatibility requires one single value"));
                }
            }
            case EXISTS, DOES_NOT_EXIST -> {
                if (!values.isEmpty()) {
                    errors.add(
                            FieldError.invalid(
                                    "values",
                                    new GoStrings(values),
                                    "values set must be empty for exists and does not exist"));
                }
            }
            case GREATER_THAN, LESS_THAN -> {
                if (values.size() != 1) {
                    errors.add(
                            FieldError.invalid(
                                    "values",
                                    new GoStrings(values),
                                    "for 'Gt', 'Lt' operators, exactly one value is required"));
                }
                for (int i = 0; i < values.size(); i++) {
                    if (!isInt64(values.get(i))) {
                        errors.add(
                                FieldError.invalid(
                                        "values[" + i + "]",
                                        values.get(i),
                                        "for 'Gt', 'Lt' operators, the value must be an integer"));
                    }
                }
            }
        }
        for (int i = 0; i < values.size(); i++) {
            List<String> problems = LabelRules.valueProblems(values.get(i));
            if (!problems.isEmpty()) {
                errors.add(
                        FieldError.invalid(
                                "values[" + i + "][" + key + "]",
                                values.get(i),
                                String.join("; ", problems)));
            }
        }
        if (!errors.isEmpty()) {
            throw new RequirementException(aggregate(errors));
        }
        return new Requirement(key, op, values);
    }

    private static boolean isInt64(String s) {
        try {
            Long.parseLong(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * {@code utilerrors.Aggregate.Error()}: one message alone, several as {@code [a, b]},
     * duplicates once.
     */
    static String aggregate(List<FieldError> errors) {
        Set<String> messages = new LinkedHashSet<>();
        for (FieldError e : errors) {
            messages.add(e.toString());
        }
        return messages.size() == 1
                ? messages.iterator().next()
                : "[" + String.join(", ", messages) + "]";
    }

    /** A failed {@link #newRequirement}; callers decide how the message is wrapped. */
    static final class RequirementException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RequirementException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Go's {@code %#v} of a {@code []string}, which Kubernetes prints as the bad value of a values
     * list.
     */
    private record GoStrings(List<String> values) {
        @Override
        public String toString() {
            if (values.isEmpty()) {
                return "[]string(nil)";
            }
            return values.stream()
                    .map(FieldError::quote)
                    .collect(Collectors.joining(", ", "[]string{", "}"));
        }
    }

    /** Matches a label set; a {@link #nothing()} selector matches none. */
    public boolean matches(Map<String, String> labels) {
        if (nothing) {
            return false;
        }
        Map<String, String> ls = labels == null ? Map.of() : labels;
        for (Requirement r : requirements) {
            if (!r.matches(ls)) {
                return false;
            }
        }
        return true;
    }

    /** Matches an object's {@code metadata.labels}. */
    public boolean matchesObject(JsonNode object) {
        if (isEmpty()) {
            return true;
        }
        Map<String, String> labels = new TreeMap<>();
        JsonNode l = object == null ? null : object.path("metadata").path("labels");
        if (l != null && l.isObject()) {
            l.properties()
                    .iterator()
                    .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        }
        return matches(labels);
    }

    /** True when the selector does not restrict anything (Kubernetes' {@code Empty()}). */
    public boolean isEmpty() {
        return !nothing && requirements.isEmpty();
    }

    /** True for the {@link #nothing()} selector. */
    public boolean matchesNothing() {
        return nothing;
    }

    /** The requirements, sorted by key. */
    public List<Requirement> requirements() {
        return requirements;
    }

    /**
     * The value a selector requires for {@code key} when it pins exactly one ({@code key=v}, {@code
     * key==v} or {@code key in (v)}), as Kubernetes' {@code RequiresExactMatch}.
     */
    public Optional<String> requiresExactMatch(String key) {
        for (Requirement r : requirements) {
            if (r.key().equals(key)) {
                boolean exact =
                        r.operator() == Operator.EQUALS
                                || r.operator() == Operator.DOUBLE_EQUALS
                                || r.operator() == Operator.IN;
                return exact && r.values().size() == 1
                        ? Optional.of(r.values().get(0))
                        : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Kubernetes' canonical string form; empty for both everything and nothing. */
    @Override
    public String toString() {
        return requirements.stream().map(Requirement::toString).collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LabelSelector other
                && nothing == other.nothing
                && requirements.equals(other.requirements);
    }

    @Override
    public int hashCode() {
        return requirements.hashCode() * 31 + Boolean.hashCode(nothing);
    }
}
