package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonToken;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one decoding pass found and where it is, worded as Go reports it: sigs.k8s.io/json's strict
 * problems (unknown and duplicate fields, each once, at most 100) at its dotted paths, the YAML
 * converter's duplicate keys, and the first type error in encoding/json's wording with the struct
 * field context. {@link SchemaDecoding} walks the tokens; this keeps the position and the findings,
 * so the walk reads as the shape of the data and the Go error conventions live in one place.
 */
final class DecodeReport {
    /** Kubernetes stops collecting strict errors at this many. */
    private static final int MAX_STRICT_ERRORS = 100;

    /** A position to come back to after stepping into a field or element. */
    record Mark(String structName, int fieldDepth, int pathLength) {}

    private final List<StrictProblem> strict = new ArrayList<>();
    private final Set<String> strictSeen = new HashSet<>();
    private final List<String> yamlDuplicates = new ArrayList<>();
    private final List<String> yamlDuplicatePaths = new ArrayList<>();
    private String typeError;

    /** sigs.k8s.io/json's strict field stack: keys joined by dots, indices in brackets. */
    private final StringBuilder strictPath = new StringBuilder();

    /**
     * Go's error context: the struct being filled and the struct fields entered, without indices or
     * map keys.
     */
    private String structName;

    private final List<String> fieldStack = new ArrayList<>();

    Mark mark() {
        return new Mark(structName, fieldStack.size(), strictPath.length());
    }

    void restore(Mark mark) {
        structName = mark.structName();
        fieldStack.subList(mark.fieldDepth(), fieldStack.size()).clear();
        strictPath.setLength(mark.pathLength());
    }

    /** Steps into field {@code key} of the Go struct {@code struct}. */
    void enterStructField(String struct, String key) {
        structName = struct;
        fieldStack.add(key);
        enterKey(key);
    }

    /** Steps into a map key (or a field of an untyped object): the path only. */
    void enterKey(String key) {
        if (!strictPath.isEmpty()) {
            strictPath.append('.');
        }
        strictPath.append(key);
    }

    void enterIndex(int index) {
        strictPath.append('[').append(index).append(']');
    }

    void strict(StrictProblem.Kind kind, String key) {
        if (strict.size() >= MAX_STRICT_ERRORS) {
            return;
        }
        StrictProblem problem = new StrictProblem(kind, pathWith(key));
        if (strictSeen.add(problem.message())) {
            strict.add(problem);
        }
    }

    void yamlDuplicate(String key, int line) {
        yamlDuplicates.add(
                "line " + line + ": key " + FieldError.quote(key) + " already set in map");
        yamlDuplicatePaths.add(pathWith(key));
    }

    /** Go keeps the first such error and goes on decoding. */
    void saveError(String message) {
        if (typeError == null) {
            typeError = message;
        }
    }

    /** A {@link FatalDecodeError} ended the pass: its message is the error. */
    void fatal(String message) {
        typeError = message;
    }

    /** encoding/json's UnmarshalTypeError text for a value of the wrong type here. */
    String unmarshalError(String value, String goType) {
        if (structName == null && fieldStack.isEmpty()) {
            return "json: cannot unmarshal " + value + " into Go value of type " + goType;
        }
        return "json: cannot unmarshal "
                + value
                + " into Go struct field "
                + (structName == null ? "" : structName)
                + "."
                + String.join(".", fieldStack)
                + " of type "
                + goType;
    }

    /** Go's name for the JSON value in decoding errors. */
    static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "object";
            case START_ARRAY -> "array";
            case VALUE_TRUE, VALUE_FALSE -> "bool";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            default -> "string";
        };
    }

    List<StrictProblem> strictProblems() {
        return List.copyOf(strict);
    }

    List<String> yamlDuplicates() {
        return List.copyOf(yamlDuplicates);
    }

    List<String> yamlDuplicatePaths() {
        return List.copyOf(yamlDuplicatePaths);
    }

    /** The first type error, or null. */
    String typeError() {
        return typeError;
    }

    private String pathWith(String key) {
        return strictPath.isEmpty() ? key : strictPath + "." + key;
    }
}
