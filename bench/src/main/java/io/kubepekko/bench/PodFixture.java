package io.kubepekko.bench;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;

/**
 * The pods the read benchmark lists: a realistic Pod (three containers with ports, env and resource
 * requests, a few labels and annotations), padded by one annotation to a chosen size, spread
 * round-robin over {@code ns-0 .. ns-(n-1)}.
 *
 * <p>Our server stores a pod with the fields defaulting would add already present in what we send,
 * so it only adds uid, creationTimestamp, generation, resourceVersion and status. etcd is given the
 * pod in that stored shape too ({@link #storedJson}), as kube-apiserver would write it, so both
 * stores hold and move objects of nearly the same size.
 */
final class PodFixture {

    /** One pod's address. */
    record Ref(String namespace, String name) {}

    /** A label every pod carries exactly once: counting it in a list body counts the items. */
    static final String ITEM_MARKER = "\"readbench\":\"item\"";

    private final int namespaces;
    private final String padding;

    /**
     * @param namespaces how many namespaces the pods are spread over
     * @param targetBytes the JSON size of a pod as sent to our server
     */
    PodFixture(int namespaces, int targetBytes) {
        this.namespaces = namespaces;
        // Size the padding on the longest name and namespace, so that every pod stays near the
        // target.
        int base = json(new Ref(namespace(namespaces - 1), name(9_999_999)), "", false).length;
        this.padding = letters(Math.max(0, targetBytes - base));
    }

    static String namespace(int index) {
        return "ns-" + index;
    }

    static String name(long seq) {
        return String.format(Locale.ROOT, "pod-%07d", seq);
    }

    Ref ref(long seq) {
        return new Ref(namespace((int) (seq % namespaces)), name(seq));
    }

    /** The pod as a client sends it on create. */
    byte[] json(Ref ref) {
        return json(ref, padding, false);
    }

    /** The pod as stored: what our server would keep for it, and what etcd is given. */
    byte[] storedJson(Ref ref) {
        return json(ref, padding, true);
    }

    private static byte[] json(Ref ref, String pad, boolean stored) {
        StringBuilder b = new StringBuilder(2600);
        b.append("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"")
                .append(ref.name())
                .append("\",\"namespace\":\"")
                .append(ref.namespace())
                .append("\",\"labels\":{")
                .append("\"app\":\"checkout\",\"tier\":\"backend\",\"track\":\"stable\",")
                .append(ITEM_MARKER)
                .append("},\"annotations\":{")
                .append("\"readbench.io/owner\":\"team-read-path\",")
                .append("\"readbench.io/build\":\"2026.11.1-4f2c9e1\",")
                .append("\"readbench.io/padding\":\"")
                .append(pad)
                .append("\"}");
        if (stored) {
            // Deterministic stand-ins for what the server generates: same shape and length.
            b.append(",\"uid\":\"")
                    .append(uid(ref))
                    .append("\",\"creationTimestamp\":\"2026-11-23T12:00:00Z\"")
                    .append(",\"generation\":1");
        }
        b.append("},\"spec\":{\"containers\":[");
        container(b, "app", "registry.example.com/shop/checkout:1.42.0", 8080, "250m", "256Mi");
        b.append(',');
        container(b, "envoy", "registry.example.com/mesh/envoy:1.28.1", 15001, "100m", "128Mi");
        b.append(',');
        container(
                b, "log-shipper", "registry.example.com/obs/fluent-bit:3.0.4", 2020, "50m", "64Mi");
        b.append("],\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,")
                .append("\"dnsPolicy\":\"ClusterFirst\",\"schedulerName\":\"default-scheduler\",")
                .append("\"enableServiceLinks\":true,\"securityContext\":{}}");
        if (stored) {
            b.append(",\"status\":{\"phase\":\"Pending\",\"qosClass\":\"Burstable\"}");
        }
        return b.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void container(
            StringBuilder b, String name, String image, int port, String cpu, String memory) {
        b.append("{\"name\":\"")
                .append(name)
                .append("\",\"image\":\"")
                .append(image)
                .append("\",\"ports\":[{\"name\":\"p")
                .append(port)
                .append("\",\"containerPort\":")
                .append(port)
                .append(",\"protocol\":\"TCP\"}],\"env\":[{\"name\":\"COMPONENT\",\"value\":\"")
                .append(name)
                .append("\"},{\"name\":\"LOG_LEVEL\",\"value\":\"info\"}],")
                .append("\"resources\":{\"requests\":{\"cpu\":\"")
                .append(cpu)
                .append("\",\"memory\":\"")
                .append(memory)
                .append("\"}},\"terminationMessagePath\":\"/dev/termination-log\",")
                .append(
                        "\"terminationMessagePolicy\":\"File\",\"imagePullPolicy\":\"IfNotPresent\"}");
    }

    private static String uid(Ref ref) {
        return UUID.nameUUIDFromBytes(
                        (ref.namespace() + "/" + ref.name()).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    private static String letters(int n) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            s.append((char) ('a' + (i * 7) % 26));
        }
        return s.toString();
    }
}
