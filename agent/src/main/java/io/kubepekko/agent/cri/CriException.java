package io.kubepekko.agent.cri;

/**
 * Carries a {@link CriError} through a failed {@code CompletionStage}; read it back with {@link
 * CriError#of}. No stack trace: the error is an expected outcome with its own words, not a bug to
 * locate.
 */
public final class CriException extends RuntimeException {

    private final CriError error;

    public CriException(CriError error) {
        super(error.toString(), null, false, false);
        this.error = error;
    }

    public CriError error() {
        return error;
    }
}
