package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.api.definition.BuiltinDefinitions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ConfigPrintersTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    /** One hour before {@link #NOW}: the Age cell reads {@code 60m}. */
    private static final String CREATED = "\"creationTimestamp\": \"2025-06-01T11:00:00Z\"";

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static TablePrinter printer(String kind) {
        return BuiltinDefinitions.printer("", kind);
    }

    private static List<Object> cells(String kind, String object) {
        return printer(kind).cells(json(object), NOW);
    }

    /** Column names with their priorities, as {@code Name:0}. */
    private static List<String> header(String kind) {
        return printer(kind).columns().stream().map(c -> c.name() + ":" + c.priority()).toList();
    }

    @Test
    void everyKindOfTheFamilyIsRegistered() {
        assertSame(
                TablePrinter.DEFAULT,
                printer("LimitRange"),
                "kube prints LimitRanges with its default convertor");
        for (String kind :
                List.of(
                        "ConfigMap",
                        "Secret",
                        "ServiceAccount",
                        "PersistentVolume",
                        "PersistentVolumeClaim",
                        "ResourceQuota")) {
            assertEquals(kind + "Printer", printer(kind).getClass().getSimpleName(), kind);
        }
    }

    @Test
    void cellsMatchColumnsInNumberEvenForAnEmptyObject() {
        for (String kind :
                List.of(
                        "ConfigMap",
                        "Secret",
                        "ServiceAccount",
                        "PersistentVolume",
                        "PersistentVolumeClaim",
                        "LimitRange",
                        "ResourceQuota")) {
            assertEquals(printer(kind).columns().size(), cells(kind, "{}").size(), kind);
        }
    }

    @Nested
    class ConfigMaps {
        @Test
        void columns() {
            assertEquals(List.of("Name:0", "Data:0", "Age:0"), header("ConfigMap"));
            Column data = printer("ConfigMap").columns().get(1);
            assertEquals("string", data.type());
            assertTrue(data.description().startsWith("Data contains the configuration data."));
            assertEquals(Column.NAME, printer("ConfigMap").columns().get(0));
        }

        @Test
        void dataCountsTextAndBinaryKeys() {
            assertEquals(
                    List.of("settings", 3L, "60m"),
                    cells(
                            "ConfigMap",
                            """
                    {"metadata": {"name": "settings", %s},
                     "data": {"a": "1", "b": "2"}, "binaryData": {"c": "AAE="}}"""
                                    .formatted(CREATED)));
        }

        @Test
        void unsetFields() {
            assertEquals(List.of("", 0L, "<unknown>"), cells("ConfigMap", "{\"data\": \"oops\"}"));
        }
    }

    @Nested
    class Secrets {
        @Test
        void columns() {
            assertEquals(List.of("Name:0", "Type:0", "Data:0", "Age:0"), header("Secret"));
            // kube declares Data a string column though its cell is an integer
            assertEquals("string", printer("Secret").columns().get(2).type());
            assertEquals(
                    "Used to facilitate programmatic handling of secret data. More info: "
                            + "https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
                    printer("Secret").columns().get(1).description());
        }

        @Test
        void typeAndKeyCount() {
            assertEquals(
                    List.of("creds", "kubernetes.io/basic-auth", 2L, "60m"),
                    cells(
                            "Secret",
                            """
                    {"metadata": {"name": "creds", %s}, "type": "kubernetes.io/basic-auth",
                     "data": {"username": "YQ==", "password": "Yg=="}}"""
                                    .formatted(CREATED)));
        }

        @Test
        void stringDataFoldsIntoData() {
            assertEquals(
                    3L,
                    cells(
                                    "Secret",
                                    """
                    {"data": {"a": "YQ==", "b": "Yg=="}, "stringData": {"b": "x", "c": "y"}}""")
                            .get(2));
        }

        @Test
        void unsetFields() {
            assertEquals(List.of("", "", 0L, "<unknown>"), cells("Secret", "{}"));
        }
    }

    @Nested
    class ServiceAccounts {
        @Test
        void onlyNameAndAgeSinceKubernetes135() {
            assertEquals(List.of("Name:0", "Age:0"), header("ServiceAccount"));
            assertEquals(
                    List.of("default", "60m"),
                    cells(
                            "ServiceAccount",
                            """
                    {"metadata": {"name": "default", %s}, "secrets": [{"name": "default-token"}]}"""
                                    .formatted(CREATED)));
        }
    }

    @Nested
    class PersistentVolumes {
        @Test
        void columns() {
            assertEquals(
                    List.of(
                            "Name:0",
                            "Capacity:0",
                            "Access Modes:0",
                            "Reclaim Policy:0",
                            "Status:0",
                            "Claim:0",
                            "StorageClass:0",
                            "VolumeAttributesClass:0",
                            "Reason:0",
                            "Age:0",
                            "VolumeMode:1"),
                    header("PersistentVolume"));
            Column storageClass = printer("PersistentVolume").columns().get(6);
            assertEquals(
                    new Column("StorageClass", "string", "", "StorageClass of the pv", 0),
                    storageClass);
            assertEquals(
                    "claimRef is part of a bi-directional binding between PersistentVolume and "
                            + "PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the "
                            + "authoritative bind between PV and PVC. More info: "
                            + "https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding",
                    printer("PersistentVolume").columns().get(5).description());
        }

        @Test
        void boundVolume() {
            assertEquals(
                    List.of(
                            "pv-1",
                            "1Gi",
                            "RWO,ROX,RWOP",
                            "Retain",
                            "Bound",
                            "apps/data",
                            "fast",
                            "gold",
                            "",
                            "60m",
                            "Filesystem"),
                    cells(
                            "PersistentVolume",
                            """
                    {"metadata": {"name": "pv-1", %s},
                     "spec": {"capacity": {"storage": "1024Mi"},
                              "accessModes": ["ReadWriteOncePod", "ReadOnlyMany", "ReadWriteOnce", "ReadOnlyMany"],
                              "persistentVolumeReclaimPolicy": "Retain",
                              "claimRef": {"kind": "PersistentVolumeClaim", "namespace": "apps", "name": "data"},
                              "storageClassName": "fast", "volumeAttributesClassName": "gold",
                              "volumeMode": "Filesystem"},
                     "status": {"phase": "Bound"}}"""
                                    .formatted(CREATED)));
        }

        @Test
        void deletingVolumeIsTerminatingAndTheBetaAnnotationWins() {
            List<Object> row =
                    cells(
                            "PersistentVolume",
                            """
                    {"metadata": {"name": "pv-2", %s, "deletionTimestamp": "2025-06-01T11:59:00Z",
                                  "annotations": {"volume.beta.kubernetes.io/storage-class": "legacy"}},
                     "spec": {"storageClassName": "fast", "volumeAttributesClassName": ""},
                     "status": {"phase": "Failed", "reason": "Recycle failed"}}"""
                                    .formatted(CREATED));
            assertEquals("Terminating", row.get(4));
            assertEquals("legacy", row.get(6));
            assertEquals("", row.get(7));
            assertEquals("Recycle failed", row.get(8));
        }

        @Test
        void unsetFields() {
            assertEquals(
                    List.of("", "0", "", "", "", "", "", "<unset>", "", "<unknown>", "<unset>"),
                    cells("PersistentVolume", "{\"spec\": {\"claimRef\": null}}"));
        }
    }

    @Nested
    class PersistentVolumeClaims {
        @Test
        void columns() {
            assertEquals(
                    List.of(
                            "Name:0",
                            "Status:0",
                            "Volume:0",
                            "Capacity:0",
                            "Access Modes:0",
                            "StorageClass:0",
                            "VolumeAttributesClass:0",
                            "Age:0",
                            "VolumeMode:1"),
                    header("PersistentVolumeClaim"));
            assertEquals(
                    "StorageClass of the pvc",
                    printer("PersistentVolumeClaim").columns().get(5).description());
            assertEquals("string", printer("PersistentVolumeClaim").columns().get(8).type());
        }

        @Test
        void boundClaimShowsTheVolumesCapacityAndModes() {
            assertEquals(
                    List.of(
                            "data", "Bound", "pv-1", "1536Mi", "RWO,RWX", "fast", "<unset>", "60m",
                            "Block"),
                    cells(
                            "PersistentVolumeClaim",
                            """
                    {"metadata": {"name": "data", %s},
                     "spec": {"volumeName": "pv-1", "storageClassName": "fast", "volumeMode": "Block",
                              "accessModes": ["ReadOnlyMany"], "resources": {"requests": {"storage": "1Gi"}}},
                     "status": {"phase": "Bound", "capacity": {"storage": "1.5Gi"},
                                "accessModes": ["ReadWriteMany", "ReadWriteOnce"]}}"""
                                    .formatted(CREATED)));
        }

        @Test
        void pendingClaimShowsNeitherCapacityNorModes() {
            assertEquals(
                    List.of("wait", "Pending", "", "", "", "", "<unset>", "60m", "Filesystem"),
                    cells(
                            "PersistentVolumeClaim",
                            """
                    {"metadata": {"name": "wait", %s},
                     "spec": {"volumeMode": "Filesystem", "accessModes": ["ReadWriteOnce"],
                              "resources": {"requests": {"storage": "1Gi"}}},
                     "status": {"phase": "Pending", "capacity": {"storage": "1Gi"}}}"""
                                    .formatted(CREATED)));
        }

        @Test
        void boundWithoutStatusCapacityShowsZero() {
            List<Object> row =
                    cells("PersistentVolumeClaim", "{\"spec\": {\"volumeName\": \"pv-9\"}}");
            assertEquals("0", row.get(3));
            assertEquals("", row.get(4));
        }

        @Test
        void deletingClaimIsTerminatingAndTheBetaAnnotationWins() {
            List<Object> row =
                    cells(
                            "PersistentVolumeClaim",
                            """
                    {"metadata": {"name": "old", "deletionTimestamp": "2025-06-01T11:59:00Z",
                                  "annotations": {"volume.beta.kubernetes.io/storage-class": ""}},
                     "spec": {"storageClassName": "fast", "volumeAttributesClassName": "silver"},
                     "status": {"phase": "Bound"}}""");
            assertEquals("Terminating", row.get(1));
            assertEquals("", row.get(5));
            assertEquals("silver", row.get(6));
        }
    }

    @Nested
    class LimitRanges {
        @Test
        void defaultConvertorColumns() {
            List<Column> columns = printer("LimitRange").columns();
            assertEquals(List.of("Name:0", "Created At:0"), header("LimitRange"));
            assertEquals("date", columns.get(1).type());
            assertEquals(Descriptions.CREATION_TIMESTAMP, columns.get(1).description());
        }

        @Test
        void creationTimeInUtcToTheSecond() {
            assertEquals(
                    List.of("limits", "2025-06-01T09:30:15Z"),
                    cells(
                            "LimitRange",
                            """
                    {"metadata": {"name": "limits", "creationTimestamp": "2025-06-01T11:30:15.250+02:00"}}"""));
        }

        @Test
        void unsetCreationTimeIsGosZeroTime() {
            assertEquals(List.of("", "0001-01-01T00:00:00Z"), cells("LimitRange", "{}"));
        }
    }

    @Nested
    class ResourceQuotas {
        @Test
        void columns() {
            assertEquals(
                    List.of("Name:0", "Request:0", "Limit:0", "Age:0"), header("ResourceQuota"));
            assertEquals(
                    "Request represents a minimum amount of cpu/memory that a container may consume.",
                    printer("ResourceQuota").columns().get(1).description());
        }

        @Test
        void usedOverHardSortedAndSplitByLimitsPrefix() {
            assertEquals(
                    List.of(
                            "compute",
                            "count/limits.x: 0/1, cpu: 250m/2, limits: 0/1, pods: 3/10, requests.memory: 512Mi/1Gi",
                            "limits.cpu: 1/4, limits.memory: 0/2Gi",
                            "60m"),
                    cells(
                            "ResourceQuota",
                            """
                    {"metadata": {"name": "compute", %s},
                     "spec": {"hard": {"ignored": "1"}},
                     "status": {
                       "hard": {"pods": "10", "requests.memory": "1024Mi", "limits.cpu": "4", "cpu": "2",
                                "limits.memory": "2Gi", "limits": "1", "count/limits.x": "1"},
                       "used": {"pods": "3", "requests.memory": "0.5Gi", "limits.cpu": "1000m", "cpu": "0.25"}}}"""
                                    .formatted(CREATED)));
        }

        @Test
        void noStatusPrintsEmptyColumns() {
            assertEquals(
                    List.of("idle", "", "", "<unknown>"),
                    cells(
                            "ResourceQuota",
                            """
                    {"metadata": {"name": "idle"}, "spec": {"hard": {"pods": "1"}}}"""));
        }
    }
}
