package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * PersistentVolumes: access modes, a storage capacity, exactly one volume source; phase Pending on
 * create.
 */
public final class PersistentVolumeStrategy implements Strategy {

    static final List<String> ACCESS_MODES =
            List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
    static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");
    private static final List<String> RECLAIM_POLICIES = List.of("Delete", "Recycle", "Retain");
    private static final List<String> SOURCES =
            List.of(
                    "gcePersistentDisk",
                    "awsElasticBlockStore",
                    "hostPath",
                    "glusterfs",
                    "nfs",
                    "rbd",
                    "quobyte",
                    "cinder",
                    "cephfs",
                    "iscsi",
                    "flexVolume",
                    "flocker",
                    "fc",
                    "azureFile",
                    "vsphereVolume",
                    "azureDisk",
                    "photonPersistentDisk",
                    "portworxVolume",
                    "scaleIO",
                    "local",
                    "storageos",
                    "csi");
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public void applyDefaults(ObjectNode obj) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        Nodes.defaultText(spec, "persistentVolumeReclaimPolicy", "Retain");
        Nodes.defaultText(spec, "volumeMode", "Filesystem");
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>(accessModes(spec, SPEC, ""));
        JsonNode capacity = spec.path("capacity");
        if (capacity.size() == 0) {
            errs.add(FieldError.required(SPEC.child("capacity").toString(), ""));
        } else {
            if (!capacity.has("storage") || capacity.size() > 1) {
                errs.add(
                        FieldError.notSupported(
                                SPEC.child("capacity").toString(),
                                BadValue.ofSortedObject(capacity),
                                List.of("storage")));
            }
            Nodes.stringMap(capacity)
                    .forEach(
                            (k, v) -> FieldChecks.quantity(v, SPEC.child("capacity").key(k), errs));
        }
        if (SOURCES.stream().noneMatch(s -> Nodes.has(spec, s))) {
            errs.add(FieldError.required(SPEC.toString(), "must specify a volume type"));
        }
        String reclaim = Nodes.text(spec, "persistentVolumeReclaimPolicy");
        if (!reclaim.isEmpty() && !RECLAIM_POLICIES.contains(reclaim)) {
            errs.add(
                    FieldError.notSupported(
                            SPEC.child("persistentVolumeReclaimPolicy").toString(),
                            reclaim,
                            RECLAIM_POLICIES));
        }
        errs.addAll(volumeMode(spec, SPEC));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        String mode = Nodes.text(obj.path("spec"), "volumeMode");
        if (!mode.equals(Nodes.text(old.path("spec"), "volumeMode"))) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("volumeMode").toString(), mode, "field is immutable"));
        }
        return errs;
    }

    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode().put("phase", "Pending");
    }

    static List<FieldError> accessModes(JsonNode spec, FieldPath path, String requiredDetail) {
        List<FieldError> errs = new ArrayList<>();
        List<String> modes = Nodes.strings(spec, "accessModes");
        if (modes.isEmpty()) {
            errs.add(FieldError.required(path.child("accessModes").toString(), requiredDetail));
        }
        for (String m : modes) {
            if (!ACCESS_MODES.contains(m)) {
                errs.add(
                        FieldError.notSupported(
                                path.child("accessModes").toString(), m, ACCESS_MODES));
            }
        }
        if (modes.contains("ReadWriteOncePod") && modes.size() > 1) {
            errs.add(
                    FieldError.forbidden(
                            path.child("accessModes").toString(),
                            "may not use ReadWriteOncePod with other access modes"));
        }
        return errs;
    }

    static List<FieldError> volumeMode(JsonNode spec, FieldPath path) {
        String mode = Nodes.text(spec, "volumeMode");
        if (!mode.isEmpty() && !VOLUME_MODES.contains(mode)) {
            return List.of(
                    FieldError.notSupported(
                            path.child("volumeMode").toString(), mode, VOLUME_MODES));
        }
        return List.of();
    }
}
