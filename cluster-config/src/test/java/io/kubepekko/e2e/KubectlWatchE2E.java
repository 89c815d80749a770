package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RunningProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's list-and-watch commands against one in-process server: {@code get -w} (also
 * {@code --output-watch-events} and a single object), {@code wait --for=delete} and {@code
 * --for=jsonpath=}, and {@code get --chunk-size}. Each test uses a namespace of its own.
 */
class KubectlWatchE2E {
    private static final Duration WITHIN = Duration.ofSeconds(30);

    @RegisterExtension static final InProcessServer SERVER = InProcessServer.onSharedCluster();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    @Test
    void getWatchPrintsTheListThenEveryChange() {
        String ns = namespace("watch-get");
        configMap(ns, "first", "one");
        try (RunningProcess watch = kubectl().start("get", "cm", "-n", ns, "-w")) {
            watch.awaitLine(l -> l.startsWith("first "), WITHIN);
            configMap(ns, "second", "two");
            watch.awaitLine(l -> l.startsWith("second "), WITHIN);
            ok("label", "cm", "first", "-n", ns, "changed=yes");
            watch.awaitLine(
                    l ->
                            l.startsWith("first ")
                                    && watch.lines().stream()
                                                    .filter(x -> x.startsWith("first "))
                                                    .count()
                                            >= 2,
                    WITHIN);
            assertTrue(watch.isAlive(), "a watch keeps running");
        }
    }

    @Test
    void outputWatchEventsNamesEveryEventType() {
        String ns = namespace("watch-events");
        try (RunningProcess watch =
                kubectl().start("get", "cm", "-n", ns, "-w", "--output-watch-events")) {
            configMap(
                    ns, "evt", "v"); // printed as ADDED whether it arrives in the list or the watch
            watch.awaitLine(l -> l.matches("ADDED\\s+evt\\s.*"), WITHIN);
            ok("annotate", "cm", "evt", "-n", ns, "note=x");
            watch.awaitLine(l -> l.matches("MODIFIED\\s+evt\\s.*"), WITHIN);
            ok("delete", "cm", "evt", "-n", ns);
            watch.awaitLine(l -> l.matches("DELETED\\s+evt\\s.*"), WITHIN);
        }
    }

    @Test
    void getWatchOfOneObjectFollowsOnlyIt() {
        String ns = namespace("watch-one");
        configMap(ns, "mine", "a");
        configMap(ns, "other", "b");
        try (RunningProcess watch =
                kubectl()
                        .start(
                                "get",
                                "cm",
                                "mine",
                                "-n",
                                ns,
                                "-w",
                                "-o",
                                "jsonpath={.metadata.name}={.metadata.labels.x}{\"\\n\"}",
                                "-v=6")) {
            watch.awaitErrorLine(l -> l.contains("watch=true") && l.contains("200 OK"), WITHIN);
            ok("label", "cm", "other", "-n", ns, "x=other");
            ok("label", "cm", "mine", "-n", ns, "x=mine");
            watch.awaitLine("mine=mine"::equals, WITHIN);
            assertTrue(
                    watch.lines().stream().allMatch(l -> l.startsWith("mine=")),
                    watch.lines().toString());
        }
    }

    @Test
    void waitForDeleteReturnsOnceTheObjectIsGone() {
        String ns = namespace("wait-delete");
        configMap(ns, "doomed", "v");
        try (RunningProcess wait =
                kubectl()
                        .start(
                                "wait",
                                "--for=delete",
                                "cm/doomed",
                                "-n",
                                ns,
                                "--timeout=60s",
                                "-v=6")) {
            // Once kubectl's WatchList request is answered (its verbose log says so), delete the
            // object.
            wait.awaitErrorLine(l -> l.contains("watch=true") && l.contains("200 OK"), WITHIN);
            ok("delete", "cm", "doomed", "-n", ns, "--wait=false");
            ProcessResult result = wait.awaitExit(WITHIN);
            assertEquals(0, result.exitCode(), result.describe());
            assertEquals(
                    "configmap/doomed condition met",
                    result.stdout()
                            .lines()
                            .filter(l -> l.startsWith("configmap/"))
                            .findFirst()
                            .orElse(""),
                    result.describe());
        }
    }

    @Test
    void waitForDeleteOfAnAbsentObjectSucceedsAtOnce() {
        String ns = namespace("wait-absent");
        ProcessResult result =
                kubectl().run("wait", "--for=delete", "cm/never", "-n", ns, "--timeout=20s");
        assertEquals(0, result.exitCode(), result.describe());
    }

    @Test
    void waitForJsonpathSeesTheChangeItWaitsFor() {
        String ns = namespace("wait-jsonpath");
        configMap(ns, "flag", "waiting");
        try (RunningProcess wait =
                kubectl()
                        .start(
                                "wait",
                                "--for=jsonpath={.data.key}=done",
                                "cm/flag",
                                "-n",
                                ns,
                                "--timeout=60s",
                                "-v=6")) {
            wait.awaitErrorLine(l -> l.contains("watch=true") && l.contains("200 OK"), WITHIN);
            ok(
                    "patch",
                    "cm",
                    "flag",
                    "-n",
                    ns,
                    "--type",
                    "merge",
                    "-p",
                    "{\"data\":{\"key\":\"done\"}}");
            ProcessResult result = wait.awaitExit(WITHIN);
            assertEquals(0, result.exitCode(), result.describe());
            assertEquals(
                    "configmap/flag condition met",
                    result.stdout()
                            .lines()
                            .filter(l -> l.startsWith("configmap/"))
                            .findFirst()
                            .orElse(""),
                    result.describe());
        }
    }

    @Test
    void waitForAConditionAlreadyMetReturnsAtOnce() {
        String ns = namespace("wait-met");
        configMap(ns, "ready", "done");
        ProcessResult result =
                kubectl()
                        .run(
                                "wait",
                                "--for=jsonpath={.data.key}=done",
                                "cm/ready",
                                "-n",
                                ns,
                                "--timeout=20s");
        assertEquals(0, result.exitCode(), result.describe());
    }

    @Test
    void chunkSizePagesThroughEveryObject() {
        String ns = namespace("chunks");
        for (int i = 0; i < 7; i++) {
            configMap(ns, "c" + i, "v");
        }
        ProcessResult result = ok("get", "cm", "-n", ns, "--chunk-size=2", "-o", "name");
        assertEquals(
                List.of(
                        "configmap/c0",
                        "configmap/c1",
                        "configmap/c2",
                        "configmap/c3",
                        "configmap/c4",
                        "configmap/c5",
                        "configmap/c6"),
                result.stdout().lines().filter(l -> l.contains("/c")).toList(),
                result.describe());
        ProcessResult table = ok("get", "cm", "-n", ns, "--chunk-size=3");
        assertEquals(
                7, table.stdout().lines().filter(l -> l.startsWith("c")).count(), table.describe());
    }

    // ---------------------------------------------------------------- helpers

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static String namespace(String name) {
        return SERVER.namespace(name);
    }

    private static void configMap(String ns, String name, String value) {
        String file = ns + "-" + name + ".yaml";
        write(
                file,
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                        + name
                        + "\n  namespace: "
                        + ns
                        + "\ndata:\n  key: "
                        + value
                        + "\n");
        ok("create", "-f", file);
    }

    private static void write(String file, String content) {
        SERVER.write(file, content);
    }
}
