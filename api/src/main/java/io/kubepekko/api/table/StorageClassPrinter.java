package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * storage.k8s.io StorageClass: Name (with {@code (default)} for the default class), Provisioner,
 * ReclaimPolicy, VolumeBindingMode, AllowVolumeExpansion, Age.
 */
public final class StorageClassPrinter implements TablePrinter {
    private static final String DEFAULT_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
    private static final String BETA_DEFAULT_ANNOTATION =
            "storageclass.beta.kubernetes.io/is-default-class";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Provisioner", "provisioner indicates the type of the provisioner."),
                    Column.string(
                            "ReclaimPolicy",
                            "reclaimPolicy controls the reclaimPolicy for dynamically provisioned "
                                    + "PersistentVolumes of this storage class. Defaults to Delete."),
                    Column.string(
                            "VolumeBindingMode",
                            "volumeBindingMode indicates how PersistentVolumeClaims should be "
                                    + "provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored "
                                    + "by servers that enable the VolumeScheduling feature."),
                    // A string column whose cells are booleans: kube declares it so and fills it
                    // so.
                    Column.string(
                            "AllowVolumeExpansion",
                            "allowVolumeExpansion shows whether the storage class allow volume expand."),
                    ClusterCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        String name = ClusterCells.name(object);
        if (isDefault(object.path("metadata").path("annotations"))) {
            name += " (default)";
        }
        return List.of(
                name,
                ClusterCells.text(object.path("provisioner"), ""),
                ClusterCells.text(object.path("reclaimPolicy"), "Delete"),
                ClusterCells.text(object.path("volumeBindingMode"), "Immediate"),
                ClusterCells.bool(object.path("allowVolumeExpansion")),
                Ages.of(object, now));
    }

    /** Either annotation, GA or beta, set to exactly {@code true}. */
    private static boolean isDefault(JsonNode annotations) {
        return "true".equals(ClusterCells.text(annotations.path(DEFAULT_ANNOTATION), null))
                || "true"
                        .equals(ClusterCells.text(annotations.path(BETA_DEFAULT_ANNOTATION), null));
    }
}
