package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admission plugins a user meets through the real kubectl v1.35: LimitRanger's defaults and
 * annotation on a pod made by {@code kubectl run}, and ResourceQuota's table in {@code kubectl
 * describe quota} (the quota controller's status) and its refusal of a create past the quota, in
 * the words kubectl prints.
 */
class KubectlAdmissionE2E {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @RegisterExtension static final InProcessServer SERVER = InProcessServer.onSharedCluster();

    @Test
    void aPodMadeByKubectlRunGetsTheLimitRangesDefaultsAndKubesAnnotation() throws IOException {
        String ns = SERVER.namespace("kubectl-limit-range");
        SERVER.write(
                "limitrange.yaml",
                """
                apiVersion: v1
                kind: LimitRange
                metadata:
                  name: defaults
                  namespace: %s
                spec:
                  limits:
                  - type: Container
                    default:
                      cpu: 500m
                      memory: 256Mi
                    defaultRequest:
                      cpu: 100m
                      memory: 64Mi
                """
                        .formatted(ns));
        assertEquals(
                "limitrange/defaults created",
                SERVER.ok("create", "-f", "limitrange.yaml").stdoutText());
        // The plugin reads LimitRanges from an informer: a server-side dry run, which stores
        // nothing, tells when this one has reached it.
        await("a dry-run pod annotated by LimitRanger")
                .atMost(DEADLINE)
                .until(
                        () ->
                                SERVER.ok(
                                                "run",
                                                "probe",
                                                "--image=busybox",
                                                "-n",
                                                ns,
                                                "--dry-run=server",
                                                "-o",
                                                "json")
                                        .stdout()
                                        .contains("kubernetes.io/limit-ranger"));

        assertEquals(
                "pod/defaulted created",
                SERVER.ok("run", "defaulted", "--image=busybox", "-n", ns).stdoutText());

        JsonNode pod =
                JSON.readTree(
                        SERVER.ok("get", "pod", "defaulted", "-n", ns, "-o", "json").stdout());
        assertEquals(
                JSON.readTree(
                        "{\"limits\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"},"
                                + "\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}"),
                pod.at("/spec/containers/0/resources"),
                pod.toPrettyString());
        assertEquals(
                "LimitRanger plugin set: cpu, memory request for container defaulted;"
                        + " cpu, memory limit for container defaulted",
                pod.at("/metadata/annotations").path("kubernetes.io/limit-ranger").asText(),
                pod.toPrettyString());
        assertEquals("Burstable", pod.at("/status/qosClass").asText(), pod.toPrettyString());
    }

    @Test
    void describeQuotaShowsWhatIsUsedAndACreatePastTheQuotaIsRefusedWithKubesMessage() {
        String ns = SERVER.namespace("kubectl-quota");
        assertEquals(
                "resourcequota/q created",
                SERVER.ok("create", "quota", "q", "-n", ns, "--hard=pods=2,configmaps=5")
                        .stdoutText());
        // The namespace's own ConfigMap, kube-root-ca.crt, is counted as kube counts it.
        awaitDescribed(ns, quotaTable(ns, "1", "0"));
        // The plugin reads quotas from an informer: a server-side dry run, which charges nothing,
        // is admitted once the status above has reached it (before, kube's "status unknown").
        await("a dry-run pod admitted by ResourceQuota")
                .atMost(DEADLINE)
                .until(
                        () ->
                                SERVER.kubectl()
                                                .run(
                                                        "run",
                                                        "probe",
                                                        "--image=busybox",
                                                        "-n",
                                                        ns,
                                                        "--dry-run=server")
                                                .exitCode()
                                        == 0);

        SERVER.ok("create", "configmap", "counted", "-n", ns, "--from-literal=k=v");
        SERVER.ok("run", "first", "--image=busybox", "-n", ns);
        SERVER.ok("run", "second", "--image=busybox", "-n", ns);
        awaitDescribed(ns, quotaTable(ns, "2", "2"));

        ProcessResult refused = SERVER.kubectl().run("run", "third", "--image=busybox", "-n", ns);
        assertEquals(1, refused.exitCode(), refused.describe());
        assertEquals(
                "Error from server (Forbidden): pods \"third\" is forbidden: exceeded quota: q,"
                        + " requested: pods=1, used: pods=2, limited: pods=2",
                refused.stderrText(),
                refused.describe());
        assertEquals(
                1,
                SERVER.kubectl().run("get", "pod", "third", "-n", ns).exitCode(),
                "the refused pod was not stored");
    }

    /**
     * {@code kubectl describe quota q} as kubectl prints it (its tab writer pads each column to its
     * widest cell and two spaces), the rows in the order of the resources' names.
     */
    private static List<String> quotaTable(String ns, String configMapsUsed, String podsUsed) {
        return List.of(
                "Name:       q",
                "Namespace:  " + ns,
                "Resource    Used  Hard",
                "--------    ----  ----",
                "configmaps  " + configMapsUsed + "     5",
                "pods        " + podsUsed + "     2");
    }

    /**
     * Waits until {@code kubectl describe quota q} prints {@code expected}, the quota controller's
     * status.
     */
    private static void awaitDescribed(String ns, List<String> expected) {
        AtomicReference<String> last = new AtomicReference<>();
        try {
            await().atMost(DEADLINE)
                    .until(
                            () -> {
                                String out = SERVER.ok("describe", "quota", "q", "-n", ns).stdout();
                                last.set(out);
                                return out.strip().lines().toList().equals(expected);
                            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "kubectl describe quota never printed\n"
                            + String.join("\n", expected)
                            + "\nlast printed:\n"
                            + last.get(),
                    e);
        }
    }
}
