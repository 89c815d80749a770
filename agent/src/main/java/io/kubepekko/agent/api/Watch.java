package io.kubepekko.agent.api;

/** An open watch stream. */
public interface Watch {

    /** Closes the stream; the listener hears nothing more. */
    void stop();
}
