package io.kubepekko.api.admission;

/**
 * A mutating admission plugin (kube's {@code admission.MutationInterface}): asked once per write,
 * before every refusing plugin ({@link WriteAdmission}), it may change the object the write leaves
 * (LimitRanger's default requests and limits) or refuse the write. The plugins run in order, each
 * seeing the object as the ones before it left it; then the refusing plugins judge the result.
 *
 * <p>Implementations are pure over what they were built with, never modify the request's objects (a
 * change is made on a copy, returned in {@link Mutation.Admitted}) and never throw for any input. A
 * dry run is mutated like any other write: its answer shows what would be stored.
 */
@FunctionalInterface
public interface MutatingAdmission {

    /** The object the write leaves after this plugin, or why the write may not happen. */
    Mutation admit(AdmissionRequest request);
}
