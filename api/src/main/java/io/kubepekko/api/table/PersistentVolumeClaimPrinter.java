package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.time.Instant;
import java.util.List;

/**
 * PersistentVolumeClaims: Name, Status, Volume, Capacity, Access Modes, StorageClass,
 * VolumeAttributesClass, Age, and VolumeMode in wide output.
 */
public final class PersistentVolumeClaimPrinter implements TablePrinter {

    private static final String PHASE =
            "phase represents the current phase of PersistentVolumeClaim.";
    private static final String VOLUME_NAME =
            "volumeName is the binding reference to the PersistentVolume backing " + "this claim.";
    private static final String CAPACITY =
            "capacity represents the actual resources of the underlying volume.";
    private static final String ACCESS_MODES =
            "accessModes contains the actual access modes the volume backing the "
                    + "PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1";
    private static final String VOLUME_MODE =
            "volumeMode defines what type of volume is required by the claim. Value "
                    + "of Filesystem is implied when not included in claim spec.";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Status", PHASE),
                    Column.string("Volume", VOLUME_NAME),
                    Column.string("Capacity", CAPACITY),
                    Column.string("Access Modes", ACCESS_MODES),
                    Column.string("StorageClass", "StorageClass of the pvc"),
                    Column.string("VolumeAttributesClass", "VolumeAttributesClass of the pvc"),
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
        String volume = ConfigCells.text(spec.get("volumeName"));
        // Until the claim names its volume kube shows neither capacity nor access modes, not even
        // those it requests.
        String capacity = "";
        String accessModes = "";
        if (!volume.isEmpty()) {
            capacity = Quantity.print(status.path("capacity").get("storage"));
            accessModes = ConfigCells.accessModes(status.get("accessModes"));
        }
        return List.of(
                ConfigCells.name(object),
                phase,
                volume,
                capacity,
                accessModes,
                storageClass(object),
                ConfigCells.orUnset(spec.get("volumeAttributesClassName")),
                Ages.of(object, now),
                ConfigCells.orUnset(spec.get("volumeMode")));
    }

    private static String storageClass(JsonNode claim) {
        String beta = ConfigCells.betaStorageClass(claim);
        if (beta != null) {
            return beta;
        }
        return ConfigCells.text(claim.path("spec").get("storageClassName"));
    }
}
