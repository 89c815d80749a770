package io.kubepekko.api.alloc;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * The answer to one write's requests, which are granted all together or not at all.
 *
 * @param granted the values in request order, or {@code null} when refused
 * @param refusedIndex the index of the first request refused, or -1
 * @param refusal why it was refused, or {@code null}
 */
public record ClaimResult(List<String> granted, int refusedIndex, Refusal refusal) {

    public static ClaimResult granted(List<String> values) {
        return new ClaimResult(List.copyOf(values), -1, null);
    }

    public static ClaimResult refused(int index, Refusal refusal) {
        return new ClaimResult(null, index, refusal);
    }

    @JsonIgnore
    public boolean isGranted() {
        return granted != null;
    }
}
