package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.kinds.Quantities;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/** The two integer views of a resource quantity the kubelet uses: {@code Value()} and {@code MilliValue()}, both rounded up. */
final class Quantity {
    private Quantity() {}

    /** The quantity at {@code node}, empty when absent or not a quantity. */
    static Optional<BigDecimal> of(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return Optional.empty();
        }
        if (node.isNumber()) {
            return Optional.of(node.decimalValue());
        }
        return Optional.ofNullable(Quantities.parse(node.asText()));
    }

    static Optional<BigDecimal> parse(String text) {
        return Optional.ofNullable(Quantities.parse(text));
    }

    /** {@code Quantity.Value()}: the integer value, rounded up; saturates at Long.MAX_VALUE like kube's int64. */
    static long value(BigDecimal q) {
        return saturate(q.setScale(0, RoundingMode.CEILING));
    }

    /** {@code Quantity.MilliValue()}: thousandths, rounded up. */
    static long milliValue(BigDecimal q) {
        return saturate(q.movePointRight(3).setScale(0, RoundingMode.CEILING));
    }

    private static long saturate(BigDecimal v) {
        if (v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return Long.MAX_VALUE;
        }
        if (v.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
            return Long.MIN_VALUE;
        }
        return v.longValueExact();
    }
}
