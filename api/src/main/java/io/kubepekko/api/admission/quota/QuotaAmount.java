package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * A quantity as quota adds, compares and quotes it: its exact value and a text in the format it
 * prints in (kube's {@code Quantity.Add} keeps its first non-zero addend's format).
 */
public record QuotaAmount(BigDecimal value, String like) implements Comparable<QuotaAmount> {

    static final QuotaAmount ZERO = new QuotaAmount(BigDecimal.ZERO, "0");
    static final QuotaAmount ONE = new QuotaAmount(BigDecimal.ONE, "1");

    /** {@code n} objects or ports. */
    static QuotaAmount count(long n) {
        return new QuotaAmount(BigDecimal.valueOf(n), "0");
    }

    /** The quantity written as {@code text}, or empty when it is none. */
    public static Optional<QuotaAmount> parse(String text) {
        return Quantity.parse(text).map(q -> new QuotaAmount(q.amount(), text.strip()));
    }

    /** The quantity at {@code node} (a string or a number), or empty when absent or none. */
    static Optional<QuotaAmount> of(JsonNode node) {
        if (node == null || !(node.isTextual() || node.isNumber())) {
            return Optional.empty();
        }
        return parse(node.asText());
    }

    QuotaAmount plus(QuotaAmount other) {
        String format = value.signum() == 0 ? other.like : like;
        return new QuotaAmount(value.add(other.value), format);
    }

    QuotaAmount minus(QuotaAmount other) {
        String format = value.signum() == 0 ? other.like : like;
        return new QuotaAmount(value.subtract(other.value), format);
    }

    boolean isZero() {
        return value.signum() == 0;
    }

    @Override
    public int compareTo(QuotaAmount other) {
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuotaAmount a && a.value.compareTo(value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }

    /** kube's {@code Quantity.String()}: canonical, in this amount's format. */
    @Override
    public String toString() {
        return Quantity.print(value, like);
    }
}
