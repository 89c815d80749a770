package io.kubepekko.actors.entity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.store.WriteOutcome;

/**
 * A write of a collection's batch: its outcome, before a version is assigned, and the values it
 * plans to claim.
 */
record PendingWrite(CollectionProtocol.Write write, WriteOutcome outcome, ValuePlan plan) {

    /**
     * The event of this write at {@code resourceVersion}, which its object now carries; made at
     * {@code committedAt}.
     */
    ObjectChanged changed(long resourceVersion, long committedAt) {
        ObjectNode after = outcome.after();
        ObjectMeta.of(after).put("resourceVersion", Long.toString(resourceVersion));
        byte[] before = outcome.before() == null ? null : Json.bytes(outcome.before());
        return new ObjectChanged(
                resourceVersion,
                ObjectMeta.name(after),
                before,
                Json.bytes(after),
                outcome.removes(),
                committedAt);
    }
}
