package io.kubepekko.api.store;

/**
 * What the write pipeline ({@link ObjectWrites#execute}) decides about one write: the change to
 * persist and answer ({@link WriteOutcome}), or its refusal, which is already the answer the client
 * gets ({@link WriteResult.Refused}).
 */
public sealed interface WriteDecision permits WriteOutcome, WriteResult.Refused {

    /** The outcome; a refusal is thrown as its {@link io.kubepekko.api.status.ApiException}. */
    default WriteOutcome orThrow() {
        if (this instanceof WriteResult.Refused refused) {
            throw refused.status().exception();
        }
        return (WriteOutcome) this;
    }
}
