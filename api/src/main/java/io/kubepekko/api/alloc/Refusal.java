package io.kubepekko.api.alloc;

/**
 * Why a requested value was not granted.
 *
 * @param reason the kind of refusal, which decides the API error a kind answers with
 * @param message the allocator's own words ({@code provided IP is already allocated}), which
 *     Kubernetes embeds in that error
 */
public record Refusal(Reason reason, String message) {

    public enum Reason {
        /** The value can never be held: outside the configured range. */
        OUT_OF_RANGE,
        /** Another object holds the value (or an earlier request of the same write took it). */
        TAKEN,
        /** Nothing was asked for by number and no value is free. */
        FULL,
        /** The server has no pool of that name (a configuration error). */
        NO_POOL
    }
}
