package io.kubepekko.api.admission.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.NullableType;
import java.util.stream.Collectors;

/**
 * A checked type as cel-go's {@code FormatCELType} prints it in its compile-time errors ({@code
 * int}, {@code list(string)}, {@code map(string, int)}, {@code timestamp}, {@code null}):
 * cel-java's own format names timestamps and durations by their protobuf messages.
 */
final class CelTypeFormat {

    private CelTypeFormat() {}

    static String of(CelType type) {
        if (type instanceof NullableType nullable) {
            return "wrapper(" + of(nullable.targetType()) + ")";
        }
        String simple =
                switch (type.kind()) {
                    case ANY -> "any";
                    case DURATION -> "duration";
                    case TIMESTAMP -> "timestamp";
                    case NULL_TYPE -> "null";
                    case ERROR -> "!error!";
                    case TYPE_PARAM -> type.name();
                    default -> null;
                };
        if (simple != null) {
            return simple;
        }
        if (type.parameters().isEmpty()) {
            return type.name();
        }
        return type.name()
                + type.parameters().stream()
                        .map(CelTypeFormat::of)
                        .collect(Collectors.joining(", ", "(", ")"));
    }
}
