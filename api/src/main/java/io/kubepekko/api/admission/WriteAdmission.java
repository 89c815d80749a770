package io.kubepekko.api.admission;

import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Optional;

/**
 * An admission plugin of writes: kube's admission control, asked once per write with what the write
 * does ({@link AdmissionRequest}), before the write is stored. The generic write pipeline asks it
 * inside the collection's single writer, once the new object is complete (defaults and the kind's
 * preparation applied) and before the kind's validation and the uniqueness check, where kube runs
 * its admission plugins and its RBAC storage's checks; a refusal is the write's answer and nothing
 * is stored. Writes the server makes itself (its controllers, its bootstrap; kube's loopback client
 * in {@code system:masters}) are not asked.
 *
 * <p>Implementations are pure over what they were built with, must not modify the request's
 * objects, and never throw for any input. Only refusing plugins exist so far (kube's validating
 * kind); a mutating phase would run before them.
 */
@FunctionalInterface
public interface WriteAdmission {

    /** Admits every write. */
    WriteAdmission NONE = request -> Optional.empty();

    /**
     * Why the write may not happen (kube's 403 {@code Forbidden} as a plugin words it, or the 404
     * of an object it needed), or empty when it may.
     */
    Optional<ApiStatus> refusal(AdmissionRequest request);

    /** The plugins in order: the first refusal answers, as kube's admission chain. */
    static WriteAdmission chain(List<WriteAdmission> plugins) {
        List<WriteAdmission> copy = List.copyOf(plugins);
        return request -> {
            for (WriteAdmission plugin : copy) {
                Optional<ApiStatus> refused = plugin.refusal(request);
                if (refused.isPresent()) {
                    return refused;
                }
            }
            return Optional.empty();
        };
    }
}
