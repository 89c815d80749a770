package io.kubepekko.agent.api;

/**
 * Carries an {@link ApiError} through a failed {@code CompletionStage}; read it with {@link
 * ApiError#of}.
 */
public final class ApiCallFailed extends RuntimeException {
    private final transient ApiError error;

    public ApiCallFailed(ApiError error) {
        super(error.toString(), null, false, false);
        this.error = error;
    }

    public ApiError error() {
        return error;
    }
}
