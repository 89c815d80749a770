package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.util.Optional;

/**
 * A quantity as LimitRanger reads, sums and quotes it: its value, the text kube's {@code
 * Quantity.String()} gives for it (a parsed quantity's canonical text, a sum's canonical text in
 * its first addend's format) and a text written in its format, which a sum keeps.
 */
record Amount(Quantity quantity, String printed, String formatOf) {

    /** kube's {@code resource.MaxMilliValue}: above it, milli-values would overflow an int64. */
    static final long MAX_MILLI_VALUE = Long.MAX_VALUE / 1000;

    /** The zero a missing quantity reads as (Go's zero {@code Quantity}). */
    static final Amount ZERO = of("0").orElseThrow();

    /** The quantity written as {@code text}, or empty when it is none. */
    static Optional<Amount> of(String text) {
        return Quantity.parse(text).map(q -> new Amount(q, Quantity.print(text.strip()), text));
    }

    /** The quantity at {@code node} (a string or a number), or empty when absent or none. */
    static Optional<Amount> of(JsonNode node) {
        if (node == null || !(node.isTextual() || node.isNumber())) {
            return Optional.empty();
        }
        return of(node.asText());
    }

    /** {@code Quantity.Add}: the sum, in this one's format unless this one is zero. */
    Amount plus(Amount other) {
        String format = quantity.signum() == 0 ? other.formatOf : formatOf;
        Quantity sum =
                Quantity.parse(quantity.amount().add(other.quantity.amount()).toPlainString())
                        .orElseThrow();
        return new Amount(sum, Quantity.print(sum.amount(), format), format);
    }

    long value() {
        return quantity.value();
    }

    long milliValue() {
        return quantity.milliValue();
    }

    int compareTo(Amount other) {
        return quantity.compareTo(other.quantity);
    }

    @Override
    public String toString() {
        return printed;
    }
}
