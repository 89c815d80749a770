package io.kubepekko.api.table;

import java.util.Map;

/** The Table printers of the core/v1 configuration and storage kinds: ConfigMap, Secret, ServiceAccount, PersistentVolume, PersistentVolumeClaim, ResourceQuota (keys "/Kind"); LimitRange has none of its own in kube either. */
final class ConfigPrinters {
    private ConfigPrinters() {}

    static final Map<String, TablePrinter> ALL = Map.of(
            "/ConfigMap", new ConfigMapPrinter(),
            "/Secret", new SecretPrinter(),
            "/ServiceAccount", new ServiceAccountPrinter(),
            "/PersistentVolume", new PersistentVolumePrinter(),
            "/PersistentVolumeClaim", new PersistentVolumeClaimPrinter(),
            "/ResourceQuota", new ResourceQuotaPrinter());
}
