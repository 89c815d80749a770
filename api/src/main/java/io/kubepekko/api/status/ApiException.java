package io.kubepekko.api.status;

/**
 * Carries an {@link ApiStatus} out of pure code. Thrown where the result is a failure that the HTTP
 * layer must render as a Status; never used for programming errors.
 */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ApiStatus status;

    public ApiException(ApiStatus status) {
        super(status.message(), null, false, false);
        this.status = status;
    }

    public ApiStatus status() {
        return status;
    }
}
