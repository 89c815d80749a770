package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A pod spec's {@code volumes} ({@code ValidateVolumes}): names unique DNS labels, exactly one
 * volume source each, and the required fields of the common sources. Its result, the names of the
 * valid volumes, is what container mounts are checked against.
 */
final class VolumeValidation {
    private VolumeValidation() {}

    private static final List<String> VOLUME_SOURCES =
            List.of(
                    "emptyDir",
                    "hostPath",
                    "gitRepo",
                    "gcePersistentDisk",
                    "awsElasticBlockStore",
                    "secret",
                    "nfs",
                    "iscsi",
                    "glusterfs",
                    "flocker",
                    "persistentVolumeClaim",
                    "rbd",
                    "cinder",
                    "cephfs",
                    "quobyte",
                    "downwardAPI",
                    "fc",
                    "flexVolume",
                    "configMap",
                    "azureFile",
                    "vsphereVolume",
                    "photonPersistentDisk",
                    "portworxVolume",
                    "azureDisk",
                    "storageos",
                    "projected",
                    "scaleIO",
                    "csi",
                    "ephemeral",
                    "image");

    /** Records the errors of {@code spec.volumes} and answers the names of the valid ones. */
    static Set<String> volumes(JsonNode spec, FieldPath path, List<FieldError> errs) {
        Set<String> names = new HashSet<>();
        List<JsonNode> vols = Nodes.items(spec, "volumes");
        for (int i = 0; i < vols.size(); i++) {
            JsonNode v = vols.get(i);
            FieldPath idx = path.index(i);
            List<FieldError> el = new ArrayList<>(volumeSource(v, idx));
            String name = Nodes.text(v, "name");
            FieldPath namePath = idx.child("name");
            if (name.isEmpty()) {
                el.add(FieldError.required(namePath.toString(), ""));
            } else {
                for (String msg : NameValidation.dns1123Label(name)) {
                    el.add(FieldError.invalid(namePath.toString(), name, msg));
                }
            }
            if (names.contains(name)) {
                el.add(FieldError.duplicate(namePath.toString(), name));
            }
            if (el.isEmpty()) {
                names.add(name);
            } else {
                errs.addAll(el);
            }
        }
        return names;
    }

    private static List<FieldError> volumeSource(JsonNode v, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        int count = 0;
        for (String source : VOLUME_SOURCES) {
            if (!Nodes.has(v, source)) {
                continue;
            }
            if (count > 0) {
                errs.add(
                        FieldError.forbidden(
                                path.child(source).toString(),
                                "may not specify more than 1 volume type"));
                continue;
            }
            count++;
            JsonNode s = v.get(source);
            switch (source) {
                case "secret" ->
                        FieldChecks.requiredText(s, "secretName", path.child(source), errs);
                case "configMap" -> FieldChecks.requiredText(s, "name", path.child(source), errs);
                case "persistentVolumeClaim" ->
                        FieldChecks.requiredText(s, "claimName", path.child(source), errs);
                case "hostPath" -> FieldChecks.requiredText(s, "path", path.child(source), errs);
                case "nfs" -> {
                    FieldChecks.requiredText(s, "server", path.child(source), errs);
                    FieldChecks.requiredText(s, "path", path.child(source), errs);
                }
                default -> {}
            }
        }
        if (count == 0) {
            errs.add(FieldError.required(path.toString(), "must specify a volume type"));
        }
        return errs;
    }
}
