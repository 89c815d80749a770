package io.kubepekko.agent.node;

import io.kubepekko.agent.GoPlatform;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the node's status says about the host, read from {@code /proc}, {@code /sys} and {@code
 * /etc} as cAdvisor and the kubelet read them. Unreadable files give empty strings, as the kubelet
 * leaves them.
 *
 * @param hostname the host's name (lower-cased, as the kubelet's {@code GetHostname})
 * @param machineId {@code /etc/machine-id}
 * @param systemUuid {@code /sys/class/dmi/id/product_uuid} (root-only on most hosts)
 * @param bootId {@code /proc/sys/kernel/random/boot_id}
 * @param kernelVersion {@code uname -r}
 * @param osImage {@code PRETTY_NAME} of {@code /etc/os-release}
 * @param operatingSystem {@code GOOS}
 * @param architecture {@code GOARCH}
 * @param cpuCores online CPUs
 * @param memoryBytes {@code MemTotal} of {@code /proc/meminfo}
 * @param ephemeralStorageBytes size of the file system holding the agent's root directory
 * @param internalIps the host's addresses when {@code --node-ip} is not given
 */
public record HostFacts(
        String hostname,
        String machineId,
        String systemUuid,
        String bootId,
        String kernelVersion,
        String osImage,
        String operatingSystem,
        String architecture,
        int cpuCores,
        long memoryBytes,
        long ephemeralStorageBytes,
        List<InetAddress> internalIps) {

    public HostFacts {
        internalIps = List.copyOf(internalIps);
    }

    /**
     * Reads this host's facts; {@code rootDir} (the agent's {@code --root-dir}) says which file
     * system is ephemeral storage.
     */
    public static HostFacts read(Path rootDir) {
        return new HostFacts(
                hostName(),
                firstLine("/etc/machine-id"),
                firstLine("/sys/class/dmi/id/product_uuid"),
                firstLine("/proc/sys/kernel/random/boot_id"),
                firstLine("/proc/sys/kernel/osrelease"),
                osImage(read("/etc/os-release")),
                GoPlatform.os(),
                GoPlatform.arch(),
                cpus(),
                memTotal(read("/proc/meminfo")),
                diskSize(rootDir),
                hostAddresses());
    }

    /**
     * The host's name as Go's {@code os.Hostname} (the kernel's nodename), lower-cased and trimmed.
     */
    public static String hostName() {
        String h = firstLine("/proc/sys/kernel/hostname");
        if (h.isEmpty()) {
            try {
                h = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                h = "localhost";
            }
        }
        return h.trim().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code PRETTY_NAME} of an os-release file, unquoted; {@code Linux} when absent, as cAdvisor.
     */
    static String osImage(String osRelease) {
        for (String line : osRelease.split("\n")) {
            if (line.startsWith("PRETTY_NAME=")) {
                String v = line.substring("PRETTY_NAME=".length()).trim();
                if (v.length() >= 2
                        && (v.startsWith("\"") || v.startsWith("'"))
                        && v.endsWith(v.substring(0, 1))) {
                    v = v.substring(1, v.length() - 1);
                }
                return v;
            }
        }
        return "Linux";
    }

    /** {@code MemTotal} of a meminfo file in bytes (the file says kB, meaning KiB). */
    static long memTotal(String meminfo) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
                try {
                    return Long.parseLong(parts[0]) * 1024;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** The count of a CPU list like {@code 0-3,6}. */
    static int cpuCount(String list) {
        int n = 0;
        for (String part : list.trim().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            String[] r = part.split("-");
            try {
                n += r.length == 2 ? Integer.parseInt(r[1]) - Integer.parseInt(r[0]) + 1 : 1;
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return n;
    }

    private static int cpus() {
        int n = cpuCount(firstLine("/sys/devices/system/cpu/online"));
        return n > 0 ? n : Runtime.getRuntime().availableProcessors();
    }

    private static long diskSize(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        try {
            return p == null ? 0 : Files.getFileStore(p).getTotalSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Non-loopback, non-link-local IPv4 addresses of up interfaces; the loopback address when there
     * are none.
     */
    private static List<InetAddress> hostAddresses() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLinkLocalAddress()) {
                        return List.of(a);
                    }
                }
            }
        } catch (SocketException e) {
            // Fall back below.
        }
        return List.of(InetAddress.getLoopbackAddress());
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String firstLine(String file) {
        return Optional.of(read(file).trim()).map(s -> s.split("\n")[0].trim()).orElse("");
    }
}
