package io.kubepekko.agent.runtime;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * What a pod's volumes need on the node, decided without touching the disk ({@link VolumePlanner})
 * and carried out by {@link VolumeWriter}: the host path of each volume and, for content volumes,
 * every file with its bytes and mode.
 */
public record VolumePlan(Map<String, Volume> volumes) {

    public VolumePlan {
        volumes = Map.copyOf(volumes);
    }

    public Optional<Volume> volume(String name) {
        return Optional.ofNullable(volumes.get(name));
    }

    /** A file of a content volume: its bytes and permission bits (e.g. 0644). */
    public record FileContent(byte[] data, int mode) {
        @Override
        public boolean equals(Object o) {
            return o instanceof FileContent f && f.mode == mode && Arrays.equals(f.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(data) + mode;
        }

        @Override
        public String toString() {
            return "FileContent["
                    + data.length
                    + " bytes, mode "
                    + Integer.toOctalString(mode)
                    + "]";
        }
    }

    /** One volume of the pod. */
    public sealed interface Volume {
        String name();

        /** Where the volume is on the host (what mounts bind). */
        Path hostPath();

        /**
         * The volume plugin mounts it read-only whatever the volumeMount says (configMap, secret,
         * downwardAPI, projected).
         */
        boolean readOnly();

        /** The permission bits of directories created under it for a subPath. */
        int directoryMode();
    }

    /**
     * {@code emptyDir}: a directory under the pod's volumes, writable by any user (mode 0777, as
     * kube).
     */
    public record EmptyDir(String name, Path hostPath) implements Volume {
        public boolean readOnly() {
            return false;
        }

        public int directoryMode() {
            return 0777;
        }
    }

    /**
     * {@code hostPath}: a path of the node, checked (and maybe created) according to {@code type}.
     */
    public record HostPath(String name, Path hostPath, String type) implements Volume {
        public boolean readOnly() {
            return false;
        }

        public int directoryMode() {
            return 0755;
        }
    }

    /**
     * {@code configMap}, {@code secret}, {@code downwardAPI} or {@code projected}: files written
     * atomically (the {@code ..data} symlink swap of kube's AtomicWriter); paths are relative to
     * the volume directory.
     */
    public record Content(String name, Path hostPath, Map<String, FileContent> files)
            implements Volume {
        public Content {
            files = Map.copyOf(files);
        }

        public boolean readOnly() {
            return true;
        }

        public int directoryMode() {
            return 0755;
        }
    }
}
