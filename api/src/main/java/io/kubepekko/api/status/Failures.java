package io.kubepekko.api.status;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What failed behind the wrappers that futures put around a failure. */
public final class Failures {
    private Failures() {}

    /**
     * The failure inside any number of {@link CompletionException} / {@link ExecutionException}
     * wrappers; a wrapper without a cause is itself the failure.
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
