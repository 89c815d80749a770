package io.kubepekko.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A server's admission, which its collections hold from their start, before the plugins can be
 * built (they read the authorizers and informers that follow the store those collections serve).
 * Until {@link #install} every write is refused with the 403 kube answers when an admission plugin
 * is not ready yet; a server installs its plugins before it serves requests, so only a write sent
 * by another server in that moment is refused.
 */
public final class DeferredAdmission implements WriteAdmission {

    private volatile WriteAdmission installed;

    /** The plugins from now on; once. */
    public void install(WriteAdmission admission) {
        Objects.requireNonNull(admission, "admission");
        synchronized (this) {
            if (installed != null) {
                throw new IllegalStateException("admission already installed");
            }
            installed = admission;
        }
    }

    @Override
    public Mutation mutation(AdmissionRequest request) {
        WriteAdmission plugins = installed;
        return plugins == null
                ? new Mutation.Refused(request.forbidden("not yet ready to handle request"))
                : plugins.mutation(request);
    }

    @Override
    public CompletionStage<Void> prepareCreate(
            GroupResource resource, String namespace, ObjectNode object) {
        WriteAdmission plugins = installed;
        return plugins == null
                ? CompletableFuture.completedFuture(null)
                : plugins.prepareCreate(resource, namespace, object);
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        WriteAdmission plugins = installed;
        return plugins == null
                ? Optional.of(request.forbidden("not yet ready to handle request"))
                : plugins.refusal(request);
    }
}
