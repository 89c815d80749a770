package io.kubepekko.api.admission.storageclass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.MutatingAdmission;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Optional;

/**
 * kube's DefaultStorageClass admission plugin, over the StorageClasses its informer follows ({@link
 * InformedObjects}): a PersistentVolumeClaim created without a class ({@code spec.storageClassName}
 * absent, and no {@code volume.beta.kubernetes.io/storage-class} annotation) gets the default
 * StorageClass, the one annotated {@code storageclass.kubernetes.io/is-default-class: "true"} (or
 * the beta annotation); of several, the newest, then the first by name, as kube 1.35 picks. An
 * empty class name asks for no class and is kept.
 */
public final class DefaultStorageClass implements MutatingAdmission {

    static final GroupResource CLAIMS = new GroupResource("", "persistentvolumeclaims");
    static final String IS_DEFAULT = "storageclass.kubernetes.io/is-default-class";
    static final String BETA_IS_DEFAULT = "storageclass.beta.kubernetes.io/is-default-class";
    static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";

    private static final Comparator<JsonNode> NEWEST_THEN_NAME =
            Comparator.comparing(DefaultStorageClass::created)
                    .reversed()
                    .thenComparing(DefaultStorageClass::name);

    private final InformedObjects classes;

    public DefaultStorageClass(InformedObjects classes) {
        this.classes = classes;
    }

    @Override
    public Mutation admit(AdmissionRequest request) {
        ObjectNode claim = request.object();
        if (request.operation() != Operation.CREATE
                || !request.resource().equals(CLAIMS)
                || !request.subresource().isEmpty()
                || claim == null
                || hasClass(claim)) {
            return new Mutation.Admitted(claim);
        }
        Optional<JsonNode> chosen =
                classes.all().stream().filter(DefaultStorageClass::isDefault).min(NEWEST_THEN_NAME);
        if (chosen.isEmpty()) {
            return new Mutation.Admitted(claim);
        }
        ObjectNode out = claim.deepCopy();
        JsonNode spec = out.path("spec");
        ObjectNode outSpec = spec.isObject() ? (ObjectNode) spec : out.putObject("spec");
        outSpec.put("storageClassName", name(chosen.get()));
        return new Mutation.Admitted(out);
    }

    /** kube's {@code PersistentVolumeClaimHasClass}: the beta annotation, or the field set. */
    private static boolean hasClass(ObjectNode claim) {
        JsonNode annotations = claim.path("metadata").path("annotations");
        if (annotations.has(BETA_CLASS)) {
            return true;
        }
        JsonNode name = claim.path("spec").path("storageClassName");
        return !name.isMissingNode() && !name.isNull();
    }

    private static boolean isDefault(JsonNode storageClass) {
        JsonNode annotations = storageClass.path("metadata").path("annotations");
        return "true".equals(annotations.path(IS_DEFAULT).asText(null))
                || "true".equals(annotations.path(BETA_IS_DEFAULT).asText(null));
    }

    private static Instant created(JsonNode object) {
        try {
            return Instant.parse(object.path("metadata").path("creationTimestamp").asText(""));
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }
}
