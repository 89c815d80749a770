package io.kubepekko.api.store;

/** {@code DeleteOptions.preconditions}: the delete applies only if uid and/or resourceVersion match. */
public record Preconditions(String uid, String resourceVersion) {
    public static final Preconditions NONE = new Preconditions(null, null);
}
