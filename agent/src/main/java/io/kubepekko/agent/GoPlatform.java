package io.kubepekko.agent;

import java.util.Locale;

/**
 * The host's operating system and architecture under Go's names ({@code GOOS}/{@code GOARCH}), as
 * the kubelet writes them into labels, {@code nodeInfo} and its User-Agent: the JVM says {@code
 * x86_64} or {@code aarch64} where Kubernetes says {@code amd64} or {@code arm64}.
 */
public final class GoPlatform {
    private GoPlatform() {}

    /** {@code GOOS} of this JVM's host. */
    public static String os() {
        return goOs(System.getProperty("os.name", ""));
    }

    /** {@code GOARCH} of this JVM's host. */
    public static String arch() {
        return goArch(System.getProperty("os.arch", ""));
    }

    static String goOs(String javaOsName) {
        String n = javaOsName.toLowerCase(Locale.ROOT);
        if (n.startsWith("windows")) {
            return "windows";
        }
        if (n.startsWith("mac") || n.startsWith("darwin")) {
            return "darwin";
        }
        return n.replace(" ", "");
    }

    static String goArch(String javaArch) {
        return switch (javaArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i486", "i586", "i686" -> "386";
            case "arm" -> "arm";
            case "ppc64le" -> "ppc64le";
            case "s390x" -> "s390x";
            case "riscv64" -> "riscv64";
            default -> javaArch.toLowerCase(Locale.ROOT);
        };
    }
}
