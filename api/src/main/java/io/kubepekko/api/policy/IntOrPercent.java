package io.kubepekko.api.policy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An {@code intstr.IntOrString} count or percentage scaled to a total, as apimachinery's {@code
 * GetScaledValueFromIntOrPercent} does it.
 */
public final class IntOrPercent {
    private IntOrPercent() {}

    /**
     * {@code value} itself when it is a number, else its percentage of {@code total}, rounded up or
     * down.
     *
     * @throws IllegalArgumentException with apimachinery's message when the value is neither
     */
    public static int scaled(JsonNode value, int total, boolean roundUp) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            throw new IllegalArgumentException("nil value for IntOrString");
        }
        if (value.isIntegralNumber()) {
            return value.asInt();
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("invalid value for IntOrString: invalid type");
        }
        String s = value.asText();
        if (!s.endsWith("%")) {
            throw new IllegalArgumentException(
                    "invalid value for IntOrString: invalid type: string is not a percentage");
        }
        int percent;
        try {
            percent = Integer.parseInt(s.substring(0, s.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "invalid value for IntOrString: invalid value \"" + s + "\"", e);
        }
        double exact = (double) percent * total / 100;
        return (int) (roundUp ? Math.ceil(exact) : Math.floor(exact));
    }

    /** Whether {@code value} is the string (percentage) form. */
    public static boolean isPercent(JsonNode value) {
        return value != null && value.isTextual();
    }
}
