package io.kubepekko.persistence;

/**
 * Marker for every message, event and snapshot that crosses a node boundary or reaches the journal.
 * Bound to Jackson CBOR in {@code reference.conf}; never rename an implementing event class, evolve
 * it with a Jackson migration instead.
 */
public interface CborSerializable {}
