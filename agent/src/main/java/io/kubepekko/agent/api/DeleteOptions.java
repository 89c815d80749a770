package io.kubepekko.agent.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.Optional;

/**
 * A delete's {@code DeleteOptions} body.
 *
 * @param uid the object must still have this uid ({@code preconditions.uid})
 * @param gracePeriodSeconds the grace period; 0 deletes at once
 */
public record DeleteOptions(Optional<String> uid, Optional<Long> gracePeriodSeconds) {

    public static final DeleteOptions NONE = new DeleteOptions(Optional.empty(), Optional.empty());

    /**
     * A zero-grace delete guarded by {@code uid}: how the kubelet removes a pod it has finished
     * with.
     */
    public static DeleteOptions immediate(String uid) {
        return new DeleteOptions(Optional.of(uid), Optional.of(0L));
    }

    ObjectNode body() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("kind", "DeleteOptions");
        o.put("apiVersion", "v1");
        gracePeriodSeconds.ifPresent(g -> o.put("gracePeriodSeconds", g));
        uid.ifPresent(u -> o.putObject("preconditions").put("uid", u));
        return o;
    }
}
