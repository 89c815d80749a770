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
 * kube's admission chain with its metrics: every mutating plugin in order, each seeing what the
 * ones before it left, then the refusing plugins in order on the result, the first refusal of a
 * phase answering; each named plugin's time and each phase's reported to an {@link
 * AdmissionObserver}.
 */
final class MeteredChain implements WriteAdmission {

    private final List<NamedPlugin<MutatingAdmission>> mutators;
    private final List<NamedPlugin<WriteAdmission>> validators;
    private final List<WriteAdmission> preparers;
    private final AdmissionObserver observer;

    MeteredChain(
            List<NamedPlugin<MutatingAdmission>> mutating,
            List<NamedPlugin<WriteAdmission>> validating,
            AdmissionObserver observer) {
        this.mutators = List.copyOf(mutating);
        this.validators = List.copyOf(validating);
        List<WriteAdmission> plugins = new ArrayList<>(validators.size());
        for (NamedPlugin<WriteAdmission> p : validators) {
            plugins.add(p.plugin());
        }
        this.preparers = List.copyOf(plugins);
        this.observer = observer;
    }

    @Override
    public Mutation mutation(AdmissionRequest request) {
        long start = System.nanoTime();
        AdmissionRequest current = request;
        for (NamedPlugin<MutatingAdmission> p : mutators) {
            long began = System.nanoTime();
            Mutation m = p.plugin().admit(current);
            boolean refused = m instanceof Mutation.Refused;
            if (p.name() != null) {
                observer.plugin(
                        p.name(),
                        AdmissionObserver.Phase.ADMIT,
                        request.operation(),
                        refused,
                        System.nanoTime() - began);
            }
            if (refused) {
                step(AdmissionObserver.Phase.ADMIT, request, true, start);
                return m;
            }
            ObjectNode object = ((Mutation.Admitted) m).object();
            if (object != current.object()) {
                current = current.withObject(object);
            }
        }
        step(AdmissionObserver.Phase.ADMIT, request, false, start);
        return new Mutation.Admitted(current.object());
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        long start = System.nanoTime();
        for (NamedPlugin<WriteAdmission> p : validators) {
            long began = System.nanoTime();
            Optional<ApiStatus> refused = p.plugin().refusal(request);
            if (p.name() != null) {
                observer.plugin(
                        p.name(),
                        AdmissionObserver.Phase.VALIDATE,
                        request.operation(),
                        refused.isPresent(),
                        System.nanoTime() - began);
            }
            if (refused.isPresent()) {
                step(AdmissionObserver.Phase.VALIDATE, request, true, start);
                return refused;
            }
        }
        step(AdmissionObserver.Phase.VALIDATE, request, false, start);
        return Optional.empty();
    }

    @Override
    public CompletionStage<Void> prepareCreate(
            GroupResource resource, String namespace, ObjectNode object) {
        CompletionStage<Void> done = CompletableFuture.completedFuture(null);
        for (WriteAdmission plugin : preparers) {
            done = done.thenCompose(v -> plugin.prepareCreate(resource, namespace, object));
        }
        return done;
    }

    private void step(
            AdmissionObserver.Phase phase, AdmissionRequest request, boolean rejected, long start) {
        observer.step(phase, request.operation(), rejected, System.nanoTime() - start);
    }
}
