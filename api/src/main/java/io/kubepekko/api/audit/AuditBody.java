package io.kubepekko.api.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A request or response body an event records ({@code requestObject}, {@code responseObject}),
 * turned into its JSON tree only when the event is written: an event waiting in the log's queue
 * holds the body's bytes, not a tree several times their size, and the decoding runs on the log's
 * writer, not on the thread that served the request.
 *
 * <p>A body that cannot be decoded has no tree: the event leaves the field out, as kube does when
 * it cannot encode an object.
 */
@FunctionalInterface
public interface AuditBody {

    /** The body as JSON, decoded now; empty when it cannot be decoded. Never throws. */
    Optional<JsonNode> tree();

    /** A body already decoded. The tree is the caller's to keep unchanged from now on. */
    static AuditBody of(JsonNode tree) {
        return () -> Optional.of(tree);
    }

    /** This body with {@code change} applied to each tree it decodes (which it may modify). */
    default AuditBody map(UnaryOperator<JsonNode> change) {
        return () -> tree().map(change);
    }
}
