package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.time.Instant;
import java.util.List;

/**
 * PersistentVolumes: Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass,
 * VolumeAttributesClass, Reason, Age, and VolumeMode in wide output.
 */
public final class PersistentVolumePrinter implements TablePrinter {

    private static final String CAPACITY =
            "capacity is the description of the persistent volume's resources and "
                    + "capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity";
    private static final String ACCESS_MODES =
            "accessModes contains all ways the volume can be mounted. More info: "
                    + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes";
    private static final String RECLAIM_POLICY =
            "persistentVolumeReclaimPolicy defines what happens to a persistent "
                    + "volume when released from its claim. Valid options are Retain (default for manually created "
                    + "PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle "
                    + "(deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More "
                    + "info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming";
    private static final String PHASE =
            "phase indicates if a volume is available, bound to a claim, or released by "
                    + "a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase";
    private static final String CLAIM_REF =
            "claimRef is part of a bi-directional binding between PersistentVolume "
                    + "and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative "
                    + "bind between PV and PVC. More info: "
                    + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding";
    private static final String REASON =
            "reason is a brief CamelCase string that describes any failure and is meant "
                    + "for machine parsing and tidy display in the CLI.";
    private static final String VOLUME_MODE =
            "volumeMode defines if a volume is intended to be used with a formatted "
                    + "filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Capacity", CAPACITY),
                    Column.string("Access Modes", ACCESS_MODES),
                    Column.string("Reclaim Policy", RECLAIM_POLICY),
                    Column.string("Status", PHASE),
                    Column.string("Claim", CLAIM_REF),
                    Column.string("StorageClass", "StorageClass of the pv"),
                    Column.string("VolumeAttributesClass", "VolumeAttributesClass of the pv"),
                    Column.string("Reason", REASON),
                    ConfigCells.AGE,
                    Column.string("VolumeMode", VOLUME_MODE).wide());

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        JsonNode status = object.path("status");
        String phase =
                ConfigCells.deleting(object)
                        ? "Terminating"
                        : ConfigCells.text(status.get("phase"));
        return List.of(
                ConfigCells.name(object),
                Quantity.print(spec.path("capacity").get("storage")),
                ConfigCells.accessModes(spec.get("accessModes")),
                ConfigCells.text(spec.get("persistentVolumeReclaimPolicy")),
                phase,
                claim(spec.get("claimRef")),
                storageClass(object),
                ConfigCells.orUnset(spec.get("volumeAttributesClassName")),
                ConfigCells.text(status.get("reason")),
                Ages.of(object, now),
                ConfigCells.orUnset(spec.get("volumeMode")));
    }

    /** {@code namespace/name} of the bound claim; empty when there is none. */
    private static String claim(JsonNode claimRef) {
        if (!ConfigCells.isSet(claimRef)) {
            return "";
        }
        return ConfigCells.text(claimRef.get("namespace"))
                + "/"
                + ConfigCells.text(claimRef.get("name"));
    }

    private static String storageClass(JsonNode volume) {
        String beta = ConfigCells.betaStorageClass(volume);
        return beta != null ? beta : ConfigCells.text(volume.path("spec").get("storageClassName"));
    }
}
