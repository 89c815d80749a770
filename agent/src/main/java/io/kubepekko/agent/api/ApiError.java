package io.kubepekko.agent.api;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Failures;

/**
 * Why an API call failed, as a value: the server answered with a {@code Status} (any non-2xx), or
 * it could not be reached or its answer not read.
 */
public sealed interface ApiError {

    /**
     * The server answered {@code status} (its {@code code}, {@code reason} and {@code message} as
     * sent).
     */
    record Answered(ApiStatus status) implements ApiError {
        @Override
        public String toString() {
            return status.code() + " " + status.reason() + ": " + status.message();
        }
    }

    /** No usable answer: connection refused or reset, timeout, unreadable body. */
    record Unreachable(String message) implements ApiError {
        @Override
        public String toString() {
            return message;
        }
    }

    /** The HTTP code of an answer, or 0 when there was none. */
    default int code() {
        return this instanceof Answered a ? a.status().code() : 0;
    }

    default boolean isNotFound() {
        return code() == 404;
    }

    default boolean isAlreadyExists() {
        return this instanceof Answered a
                && a.status().code() == 409
                && "AlreadyExists".equals(a.status().reason());
    }

    default boolean isConflict() {
        return this instanceof Answered a
                && a.status().code() == 409
                && "Conflict".equals(a.status().reason());
    }

    /** 410 Gone: a watch or list asked for a resourceVersion the server no longer serves. */
    default boolean isGone() {
        return code() == 410;
    }

    /**
     * The error behind a failed {@link ApiClient} stage; anything unexpected counts as unreachable.
     */
    static ApiError of(Throwable t) {
        Throwable cause = Failures.unwrap(t);
        if (cause instanceof ApiCallFailed f) {
            return f.error();
        }
        String m = cause.getMessage();
        return new Unreachable(cause.getClass().getSimpleName() + (m == null ? "" : ": " + m));
    }
}
