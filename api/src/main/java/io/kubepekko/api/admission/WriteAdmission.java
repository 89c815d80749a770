package io.kubepekko.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An admission plugin of writes: kube's admission control, asked once per write with what the write
 * does ({@link AdmissionRequest}), before the write is stored. The generic write pipeline asks it
 * inside the collection's single writer, once the new object is complete (defaults and the kind's
 * preparation applied) and before the kind's validation and the uniqueness check, where kube runs
 * its admission plugins and its RBAC storage's checks; a refusal is the write's answer and nothing
 * is stored. The built-in controllers' writes are asked as their own users', as the requests of
 * kube's controllers are; the writes of the server's bootstrap (kube's loopback client in {@code
 * system:masters}) are not asked.
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

    /**
     * The mutating phase, asked before {@link #refusal} with the object the write would leave: the
     * object it leaves instead, or the refusal. None here: the object as it is.
     */
    default Mutation mutation(AdmissionRequest request) {
        return new Mutation.Admitted(request.object());
    }

    /**
     * What the plugins must look up before a create of {@code object} in {@code namespace} can be
     * admitted, done before the write and off its thread (kube's plugins call the API server live
     * where their informer has not shown an object yet; the write's plugins only read what is
     * known): completes once done, never exceptionally. None here.
     */
    default CompletionStage<Void> prepareCreate(
            GroupResource resource, String namespace, ObjectNode object) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * kube's admission chain: every mutating plugin in order, each seeing what the ones before it
     * left (the first refusal answers), then the refusing plugins in order on the result (the first
     * refusal answers). Unnamed and unmetered: see {@link #chain(List, List, AdmissionObserver)}.
     */
    static WriteAdmission chain(List<MutatingAdmission> mutating, List<WriteAdmission> validating) {
        List<NamedPlugin<MutatingAdmission>> mutators = new ArrayList<>(mutating.size());
        for (MutatingAdmission m : mutating) {
            mutators.add(new NamedPlugin<>(null, m));
        }
        List<NamedPlugin<WriteAdmission>> validators = new ArrayList<>(validating.size());
        for (WriteAdmission v : validating) {
            validators.add(new NamedPlugin<>(null, v));
        }
        return chain(mutators, validators, AdmissionObserver.NONE);
    }

    /**
     * kube's admission chain, as {@link #chain(List, List)}, with each named plugin's time and each
     * phase's reported to {@code observer} (kube's admission metrics).
     */
    static WriteAdmission chain(
            List<NamedPlugin<MutatingAdmission>> mutating,
            List<NamedPlugin<WriteAdmission>> validating,
            AdmissionObserver observer) {
        return new MeteredChain(mutating, validating, observer);
    }

    /**
     * The plugins in order: the first refusal answers, as kube's admission chain; their look-ups
     * before a create run one after the other.
     */
    static WriteAdmission chain(List<WriteAdmission> plugins) {
        List<WriteAdmission> copy = List.copyOf(plugins);
        return new WriteAdmission() {
            @Override
            public Optional<ApiStatus> refusal(AdmissionRequest request) {
                for (WriteAdmission plugin : copy) {
                    Optional<ApiStatus> refused = plugin.refusal(request);
                    if (refused.isPresent()) {
                        return refused;
                    }
                }
                return Optional.empty();
            }

            @Override
            public CompletionStage<Void> prepareCreate(
                    GroupResource resource, String namespace, ObjectNode object) {
                CompletionStage<Void> done = CompletableFuture.completedFuture(null);
                for (WriteAdmission plugin : copy) {
                    done = done.thenCompose(v -> plugin.prepareCreate(resource, namespace, object));
                }
                return done;
            }
        };
    }
}
