package io.kubepekko.api.store;

import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.auth.review.TokenRequests;
import io.kubepekko.api.discovery.SubresourceInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SubresourceCreate;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How this server serves requests to one subresource of a kind ({@code .../{name}/{subresource}}),
 * read off the kind's registry entry so the HTTP layer routes without knowing subresource names:
 * the verbs are the ones discovery advertises for it ({@link SubresourceInfo}), the body kind
 * likewise, and only the subresources the generic store writes ({@link ObjectWrites}) or the kind's
 * strategy creates through are served at all; the rest (a pod's {@code log}) are advertised but
 * answer 404.
 */
public sealed interface SubresourceRoute {

    /**
     * The route of {@code type}'s subresource {@code name}, or empty when this server does not
     * serve it (the kind has no such subresource, or only advertises it).
     */
    static Optional<SubresourceRoute> of(ResourceType type, String name) {
        if (!type.subresources().contains(name)) {
            return Optional.empty();
        }
        GroupVersionKind body = SubresourceInfo.of(type, name).responseKind();
        if (body.equals(TokenRequests.GVK)) {
            return Optional.of(new IssuesToken());
        }
        if (body.equals(Evicts.GVK)) {
            return Optional.of(new Evicts());
        }
        SubresourceCreate creation = type.strategy().subresourceCreate(name);
        if (creation != null) {
            return Optional.of(new Creates(creation));
        }
        if (!ObjectPart.STORED.contains(name)) {
            return Optional.empty();
        }
        SubresourceInfo info = SubresourceInfo.of(type, name);
        Set<Verb> verbs = EnumSet.noneOf(Verb.class);
        for (Verb verb : Verb.values()) {
            if (info.verbs().contains(verb.wireName())) {
                verbs.add(verb);
            }
        }
        return Optional.of(
                new ObjectPart(
                        name, verbs, info.responseKind(), info.responseKind().equals(type.gvk())));
    }

    /**
     * A POST that changes the object it addresses (kube-apiserver's {@code NamedCreater}, e.g.
     * {@code pods/binding}).
     */
    record Creates(SubresourceCreate creation) implements SubresourceRoute {}

    /**
     * A POST that issues a service-account token for the object it addresses ({@code
     * serviceaccounts/{name}/token}, kube's {@code TokenREST}): nothing is written.
     */
    record IssuesToken() implements SubresourceRoute {}

    /**
     * A POST that evicts the pod it addresses ({@code pods/{name}/eviction}, kube's {@code
     * EvictionREST}): the pod is deleted unless a PodDisruptionBudget refuses.
     */
    record Evicts() implements SubresourceRoute {
        /** The body's kind. */
        public static final GroupVersionKind GVK = new GroupVersionKind("policy", "v1", "Eviction");
    }

    /**
     * Reads and writes of a part of the object ({@code status}, {@code finalize}) or of a view of
     * it ({@code scale}), through the generic store.
     *
     * @param name the subresource, as the write names it
     * @param verbs the verbs its route takes; any other is 405
     * @param bodyKind the kind its requests and responses carry
     * @param ownKind whether that is the owner's kind (the object as stored), not a converted view
     */
    record ObjectPart(String name, Set<Verb> verbs, GroupVersionKind bodyKind, boolean ownKind)
            implements SubresourceRoute {

        /** The subresources {@link ObjectWrites} reads and writes. */
        static final Set<String> STORED = Set.of("status", "scale", "finalize");

        public ObjectPart {
            verbs = verbs.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(verbs));
        }

        public boolean allows(Verb verb) {
            return verbs.contains(verb);
        }

        /**
         * The patch formats a PATCH takes, in the order kube-apiserver lists them when it refuses
         * another: server-side apply only where the body is the stored kind, whose fields apply
         * manages.
         */
        public List<PatchType> patchTypes() {
            return ownKind
                    ? List.of(PatchType.values())
                    : List.of(
                            PatchType.JSON_PATCH,
                            PatchType.MERGE_PATCH,
                            PatchType.STRATEGIC_MERGE_PATCH);
        }

        /** What a GET answers for the stored object {@code stored} (JSON) of {@code type}. */
        public byte[] read(ResourceType type, byte[] stored) {
            if (ownKind) {
                return stored;
            }
            if (bodyKind.equals(ScaleConversion.GVK)) {
                return Json.bytes(ScaleConversion.toScale(type, Json.parseTrusted(stored)));
            }
            throw new IllegalStateException("no view of " + type.kind() + " as " + bodyKind);
        }
    }
}
