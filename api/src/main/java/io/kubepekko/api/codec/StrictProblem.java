package io.kubepekko.api.codec;

import io.kubepekko.api.status.FieldError;

/**
 * An unknown or duplicate field found while decoding, at a path in Kubernetes' strict-decoding
 * syntax ({@code spec.containers[0].foo}, map keys joined with dots: {@code metadata.labels.app}).
 */
record StrictProblem(Kind kind, String path) {

    enum Kind {
        UNKNOWN("unknown field"),
        DUPLICATE("duplicate field");

        final String text;

        Kind(String text) {
            this.text = text;
        }
    }

    /** The message as Kubernetes words it: {@code unknown field "metadata.bogus"}. */
    String message() {
        return kind.text + " " + FieldError.quote(path);
    }
}
