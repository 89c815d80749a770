package io.kubepekko.api.status;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A path-addressed validation error, the counterpart of Kubernetes' {@code field.Error}. Its
 * rendering ({@link #body()}, {@link #toString()}) matches what kubectl users see.
 */
public record FieldError(Type type, String field, Object badValue, String detail) {

    /** Marker for "no bad value to print" (Kubernetes' {@code omitValue}). */
    public static final Object OMIT =
            new Object() {
                @Override
                public String toString() {
                    return "<omitted>";
                }
            };

    /** Error types with their display strings and Status cause reasons. */
    public enum Type {
        NOT_FOUND("Not found", "FieldValueNotFound"),
        REQUIRED("Required value", "FieldValueRequired"),
        DUPLICATE("Duplicate value", "FieldValueDuplicate"),
        INVALID("Invalid value", "FieldValueInvalid"),
        NOT_SUPPORTED("Unsupported value", "FieldValueNotSupported"),
        FORBIDDEN("Forbidden", "FieldValueForbidden"),
        TOO_LONG("Too long", "FieldValueTooLong"),
        TOO_MANY("Too many", "FieldValueTooMany"),
        INTERNAL("Internal error", "InternalError"),
        TYPE_INVALID("Invalid value", "FieldValueTypeInvalid");

        public final String display;
        public final String causeReason;

        Type(String display, String causeReason) {
            this.display = display;
            this.causeReason = causeReason;
        }
    }

    public static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, "", detail);
    }

    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    public static FieldError typeInvalid(String field, Object value, String detail) {
        return new FieldError(Type.TYPE_INVALID, field, value, detail);
    }

    public static FieldError duplicate(String field, Object value) {
        return new FieldError(Type.DUPLICATE, field, value, "");
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, "", detail);
    }

    public static FieldError notFound(String field, Object value) {
        return new FieldError(Type.NOT_FOUND, field, value, "");
    }

    public static FieldError tooLong(String field, int maxLength) {
        String unit = maxLength == 1 ? "byte" : "bytes";
        return new FieldError(
                Type.TOO_LONG, field, "", "may not be more than " + maxLength + " " + unit);
    }

    public static FieldError tooMany(String field, int actual, int max) {
        return new FieldError(Type.TOO_MANY, field, actual, "must have at most " + max + " items");
    }

    public static FieldError notSupported(String field, Object value, List<String> supported) {
        String detail =
                supported.isEmpty()
                        ? ""
                        : "supported values: "
                                + supported.stream()
                                        .map(FieldError::quote)
                                        .collect(Collectors.joining(", "));
        return new FieldError(Type.NOT_SUPPORTED, field, value, detail);
    }

    /** The message without the field: {@code Invalid value: "x": detail}. */
    public String body() {
        StringBuilder s = new StringBuilder(type.display);
        boolean valueless =
                type == Type.REQUIRED
                        || type == Type.FORBIDDEN
                        || type == Type.TOO_LONG
                        || type == Type.INTERNAL
                        || badValue == OMIT;
        if (!valueless) {
            s.append(": ");
            if (badValue instanceof String str) {
                s.append(quote(str));
            } else if (badValue == null) {
                s.append("null");
            } else {
                s.append(badValue);
            }
        }
        if (detail != null && !detail.isEmpty()) {
            s.append(": ").append(detail);
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return field == null || field.isEmpty() ? body() : field + ": " + body();
    }

    public StatusCause toCause() {
        return new StatusCause(type.causeReason, body(), field);
    }

    /**
     * Go's {@code %q} ({@code strconv.Quote}): escapes quotes, backslashes, control characters and
     * other characters Go does not print; printable Unicode stays as it is.
     */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case 0x07 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 0x0b -> b.append("\\v");
                default -> {
                    if (isPrint(c)) {
                        b.appendCodePoint(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", c));
                    } else if (Character.isSurrogate((char) c) && c < 0x10000) {
                        b.append("\\ufffd"); // not a character: Go's string would hold U+FFFD
                    } else if (c < 0x10000) {
                        b.append(String.format("\\u%04x", c));
                    } else {
                        b.append(String.format("\\U%08x", c));
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /**
     * Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII
     * space; other spaces, controls, formats, surrogates and unassigned code points are not
     * printable.
     */
    public static boolean isPrint(int codePoint) {
        if (codePoint == ' ') {
            return true;
        }
        return switch (Character.getType(codePoint)) {
            case Character.UPPERCASE_LETTER,
                    Character.LOWERCASE_LETTER,
                    Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER,
                    Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK,
                    Character.COMBINING_SPACING_MARK,
                    Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER,
                    Character.OTHER_NUMBER,
                    Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION,
                    Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION,
                    Character.MATH_SYMBOL,
                    Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL,
                    Character.OTHER_SYMBOL ->
                    true;
            default -> false;
        };
    }
}
