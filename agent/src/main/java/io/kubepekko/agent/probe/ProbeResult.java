package io.kubepekko.agent.probe;

/** A probe's outcome ({@code results.Result}). */
public enum ProbeResult {
    SUCCESS,
    FAILURE,
    UNKNOWN
}
