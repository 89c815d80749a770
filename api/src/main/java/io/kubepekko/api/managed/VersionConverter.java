package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * An object in the other served versions of its kind (structured-merge-diff's {@code Converter}):
 * the fields of a manager who wrote through another version are paths of that version, so the
 * object is compared, and pruned, as that version has it. Kinds served in one version convert
 * nothing ({@link #NONE}).
 */
public interface VersionConverter {

    /** One version: every manager's fields are the written version's. */
    VersionConverter NONE =
            new VersionConverter() {
                @Override
                public Optional<Converted> convert(ObjectNode object, String apiVersion) {
                    return Optional.empty();
                }

                @Override
                public ObjectNode back(ObjectNode object, String apiVersion) {
                    return object;
                }
            };

    /** An object in another version, with the message type its fields follow there. */
    record Converted(ObjectNode object, String type) {}

    /**
     * {@code object}, written in the request's version, as {@code apiVersion} has it; empty when
     * {@code apiVersion} is the request's own version or none the kind is served in (a manager of
     * such a version is then taken as the request's version's). The result may share parts with
     * {@code object}.
     */
    Optional<Converted> convert(ObjectNode object, String apiVersion);

    /**
     * An object of {@code apiVersion} (one {@link #convert} answers for) in the request's version.
     */
    ObjectNode back(ObjectNode object, String apiVersion);
}
