package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the node actors tell an observer (the guardian's caller, tests) when they have done
 * something.
 */
public sealed interface NodeEvent {

    /** The Node is registered (created, or adopted when it already existed). */
    record Registered(String uid, boolean adopted) implements NodeEvent {}

    /** A status sync ran: {@code patched} when it wrote the status, with the status it computed. */
    record StatusSynced(boolean patched, ObjectNode status) implements NodeEvent {}

    /** The Lease was created or renewed; the Lease as the server answered. */
    record LeaseRenewed(ObjectNode lease) implements NodeEvent {}
}
