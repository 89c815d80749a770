package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.schema.SchemaNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Decodes the scalar token under the parser as Go's typed unmarshalling would: integers checked
 * against int32/int64, floats against their range, base64 bytes kept in canonical form, and the
 * custom {@code UnmarshalJSON} of {@code IntOrString}, {@code Quantity} and {@code metav1.Time},
 * which stop the decoder at once. A value of the wrong type is recorded in the {@link DecodeReport}
 * and answers null. Objects and arrays never reach the plain scalar methods: {@link SchemaDecoding}
 * reports and skips them, since skipping YAML still reports duplicate keys.
 */
final class ScalarDecoding {
    private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final JsonParser p;
    private final boolean yaml;
    private final JsonNodeFactory nodes;
    private final DecodeReport report;

    ScalarDecoding(JsonParser p, boolean yaml, JsonNodeFactory nodes, DecodeReport report) {
        this.p = p;
        this.yaml = yaml;
        this.nodes = nodes;
        this.report = report;
    }

    JsonNode string(JsonToken t, String goType) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            return nodes.textNode(p.getText());
        }
        if (t == JsonToken.VALUE_EMBEDDED_OBJECT && p.getEmbeddedObject() instanceof byte[] b) {
            // YAML !!binary: the YAML converter turns it into a plain string.
            return nodes.textNode(new String(b, StandardCharsets.UTF_8));
        }
        return mismatch(t, goType);
    }

    JsonNode bool(JsonToken t, String goType) {
        return t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE
                ? nodes.booleanNode(t == JsonToken.VALUE_TRUE)
                : mismatch(t, goType);
    }

    JsonNode integer(JsonToken t, String goType) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            BigInteger v = p.getBigIntegerValue();
            if (fits(v, goType)) {
                return integerNode(v);
            }
            return typeError(report.unmarshalError("number " + p.getText(), goType));
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            Optional<BigInteger> whole = yaml ? wholeNumber() : Optional.empty();
            if (whole.isPresent() && fits(whole.get(), goType)) {
                // The YAML converter writes 3.0 as 3.
                return integerNode(whole.get());
            }
            return typeError(report.unmarshalError("number " + p.getText(), goType));
        }
        return mismatch(t, goType);
    }

    JsonNode number(JsonToken t, String goType) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return integerNode(p.getBigIntegerValue());
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            try {
                BigDecimal d = p.getDecimalValue();
                double limit = goType.equals("float32") ? Float.MAX_VALUE : Double.MAX_VALUE;
                if (Math.abs(d.doubleValue()) <= limit) {
                    return nodes.numberNode(d);
                }
            } catch (NumberFormatException e) {
                // NaN or infinity: out of range like an overflow
            }
            return typeError(report.unmarshalError("number " + p.getText(), goType));
        }
        return mismatch(t, goType);
    }

    JsonNode bytes(JsonToken t, String goType) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            try {
                // Stored in canonical form, as Kubernetes re-encodes the decoded bytes.
                return nodes.textNode(
                        Base64.getEncoder().encodeToString(GoBase64.decode(p.getText())));
            } catch (GoBase64.CorruptInput e) {
                return typeError(e.getMessage());
            }
        }
        if (t == JsonToken.VALUE_EMBEDDED_OBJECT && p.getEmbeddedObject() instanceof byte[] b) {
            return nodes.textNode(Base64.getEncoder().encodeToString(b));
        }
        return mismatch(t, goType);
    }

    /**
     * {@code intstr.IntOrString}: its UnmarshalJSON decodes non-strings as an int32, failing at
     * once.
     */
    JsonNode intOrString(JsonToken t) throws IOException, FatalDecodeError {
        if (t == JsonToken.VALUE_STRING) {
            return nodes.textNode(p.getText());
        }
        if (t == JsonToken.VALUE_NUMBER_INT && fits(p.getBigIntegerValue(), "int32")) {
            return nodes.numberNode(p.getIntValue());
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT && yaml) {
            Optional<BigInteger> whole = wholeNumber();
            if (whole.isPresent() && fits(whole.get(), "int32")) {
                return nodes.numberNode(whole.get().intValue());
            }
        }
        boolean number = t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT;
        throw new FatalDecodeError(
                report.unmarshalError(
                        number ? "number " + p.getText() : DecodeReport.describe(t), "int32"));
    }

    /** {@code resource.Quantity}: a string or a bare number, parsed at once. */
    JsonNode quantity(JsonToken t) throws IOException, FatalDecodeError {
        String text =
                switch (t) {
                    case VALUE_STRING -> p.getText().strip();
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getText();
                    default -> null;
                };
        if (text == null) {
            throw new FatalDecodeError(Quantity.FORMAT_WRONG);
        }
        Optional<String> error = Quantity.syntaxError(text);
        if (error.isPresent()) {
            throw new FatalDecodeError(error.get());
        }
        return nodes.textNode(text);
    }

    /** {@code metav1.Time}: its UnmarshalJSON wants a JSON string holding an RFC 3339 time. */
    JsonNode dateTime(JsonToken t) throws IOException, FatalDecodeError {
        if (t != JsonToken.VALUE_STRING) {
            throw new FatalDecodeError(report.unmarshalError(DecodeReport.describe(t), "string"));
        }
        String text = p.getText();
        Optional<String> error = GoTimeSyntax.error(text);
        if (error.isPresent()) {
            throw new FatalDecodeError(error.get());
        }
        return nodes.textNode(text);
    }

    /** The smallest node that holds {@code v}, as Jackson would have read it. */
    JsonNode integerNode(BigInteger v) {
        if (v.bitLength() < 32) {
            return nodes.numberNode(v.intValue());
        }
        return v.bitLength() < 64 ? nodes.numberNode(v.longValue()) : nodes.numberNode(v);
    }

    /** Go's zero value for an element that was {@code null}. */
    JsonNode zero(SchemaNode s) {
        return switch (s.type()) {
            case STRING -> nodes.textNode("");
            case INTEGER, NUMBER, INT_OR_STRING -> nodes.numberNode(0);
            case BOOLEAN -> nodes.booleanNode(false);
            case QUANTITY -> nodes.textNode("0");
            case OBJECT -> nodes.objectNode();
            default -> nodes.nullNode();
        };
    }

    /** A scalar of the wrong type: nothing to skip, so only the error is kept. */
    private JsonNode mismatch(JsonToken t, String goType) {
        return typeError(report.unmarshalError(DecodeReport.describe(t), goType));
    }

    private JsonNode typeError(String message) {
        report.saveError(message);
        return null;
    }

    private Optional<BigInteger> wholeNumber() throws IOException {
        try {
            BigDecimal d = p.getDecimalValue().stripTrailingZeros();
            return d.scale() <= 0 ? Optional.of(d.toBigIntegerExact()) : Optional.empty();
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static boolean fits(BigInteger v, String goType) {
        return goType.equals("int32")
                ? v.compareTo(INT32_MIN) >= 0 && v.compareTo(INT32_MAX) <= 0
                : v.compareTo(INT64_MIN) >= 0 && v.compareTo(INT64_MAX) <= 0;
    }
}
