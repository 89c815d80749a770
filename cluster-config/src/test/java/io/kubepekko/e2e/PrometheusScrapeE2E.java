package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RepositoryRoot;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server's {@code /metrics}, scraped through the real kubectl ({@code get --raw}), read by the
 * Prometheus project's own text-format parser ({@code prometheus_client.parser} of its Python
 * client, installed by {@code cluster-config/bin/fetch-prometheus-parser}) instead of the test
 * parser of our own that {@code MetricsIT} uses: a line it refuses (a value that is no number, a
 * broken label set, an invalid metric name or type) fails the test. It is laxer than Prometheus' Go
 * parser about a family named twice and about samples away from their family's {@code TYPE} line
 * (it reads those as families of their own, untyped), so the test refuses both itself. It fails,
 * not skips, when python3 or the package cannot be had: the proof would otherwise be silently lost.
 */
class PrometheusScrapeE2E {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    /** One sample as the parser read it; its value as Prometheus spells it ({@code +Inf}...). */
    record Sample(String name, Map<String, String> labels, String value) {
        double number() {
            return switch (value) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> Double.parseDouble(value);
            };
        }
    }

    /**
     * One metric family as the parser read it: a counter is named without its {@code _total}, as
     * OpenMetrics names it.
     */
    record Family(String name, String type, String help, List<Sample> samples) {
        Optional<Sample> sample(String sampleName, Map<String, String> labels) {
            return samples.stream()
                    .filter(s -> s.name().equals(sampleName) && s.labels().equals(labels))
                    .findFirst();
        }
    }

    /** The directory to put on PYTHONPATH. */
    private static Path installParser() {
        Path root = RepositoryRoot.find();
        ProcessResult fetched =
                Processes.run(
                        List.of(
                                root.resolve("cluster-config/bin/fetch-prometheus-parser")
                                        .toString()),
                        root,
                        Map.of(),
                        Duration.ofMinutes(5));
        assertTrue(
                fetched.exitCode() == 0 && !fetched.timedOut(),
                () ->
                        "prometheus_client could not be installed (it needs apt-get and Debian's"
                                + " packages): "
                                + fetched.describe());
        List<String> lines = fetched.stdoutText().lines().toList();
        return Path.of(lines.get(lines.size() - 1).strip());
    }

    /** The families Prometheus' parser reads from {@code exposition}, by name. */
    private static List<Family> parse(Path site, String exposition) {
        Path file = SERVER.scratch().resolve("metrics.txt");
        Path script = SERVER.scratch().resolve("parse.py");
        ProcessResult parsed;
        try (InputStream resource =
                PrometheusScrapeE2E.class.getResourceAsStream("/prometheus/parse.py")) {
            Files.copy(resource, script, StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(file, exposition);
            parsed =
                    Processes.run(
                            List.of("python3", script.toString(), file.toString()),
                            site,
                            Map.of("PYTHONPATH", site.toString()),
                            Duration.ofMinutes(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (UncheckedIOException e) {
            throw new AssertionError("python3 could not be run: " + e.getMessage(), e);
        }
        assertEquals(
                0,
                parsed.exitCode(),
                "Prometheus' parser refused the scrape: " + parsed.describe());
        try {
            return JSON.readValue(parsed.stdout(), new TypeReference<List<Family>>() {});
        } catch (IOException e) {
            throw new AssertionError("the parser printed no families\n" + parsed.describe(), e);
        }
    }

    /** kube's labels of a create of a core-group ConfigMap, with these on top. */
    private static Map<String, String> configMapCreate(String... more) {
        Map<String, String> labels = new HashMap<>();
        labels.put("verb", "POST");
        labels.put("dry_run", "");
        labels.put("group", "");
        labels.put("version", "v1");
        labels.put("resource", "configmaps");
        labels.put("subresource", "");
        labels.put("scope", "resource");
        labels.put("component", "apiserver");
        for (int i = 0; i < more.length; i += 2) {
            labels.put(more[i], more[i + 1]);
        }
        return labels;
    }

    @Test
    void theScrapeIsReadByPrometheusOwnParserWithKubesFamiliesAndLabels() throws IOException {
        Path site = installParser();
        String ns = SERVER.namespace("prometheus-scrape");
        SERVER.ok("create", "configmap", "scraped", "-n", ns, "--from-literal=k=v");

        String exposition = SERVER.ok("get", "--raw", "/metrics").stdout();
        List<Family> families = parse(site, exposition);

        Map<String, List<Family>> byName =
                families.stream().collect(Collectors.groupingBy(Family::name));
        assertEquals(
                List.of(),
                byName.entrySet().stream()
                        .filter(e -> e.getValue().size() > 1)
                        .map(Map.Entry::getKey)
                        .toList(),
                "families named twice");
        assertEquals(
                List.of(),
                families.stream()
                        .filter(f -> f.type().equals("untyped"))
                        .map(Family::name)
                        .toList(),
                "samples read apart from their family's TYPE line");
        Map<String, Family> family =
                families.stream().collect(Collectors.toMap(Family::name, Function.identity()));

        Family requests = family.get("apiserver_request");
        assertEquals("counter", requests == null ? null : requests.type(), exposition);
        assertTrue(requests.help().startsWith("[STABLE] Counter of apiserver requests"));
        double created =
                requests.sample("apiserver_request_total", configMapCreate("code", "201"))
                        .orElseThrow(() -> new AssertionError("no create counted\n" + requests))
                        .number();
        assertTrue(created >= 1, "creates counted: " + created);

        Family durations = family.get("apiserver_request_duration_seconds");
        assertEquals("histogram", durations == null ? null : durations.type(), exposition);
        Map<String, String> everyBucket = configMapCreate("le", "+Inf");
        double inf =
                durations
                        .sample("apiserver_request_duration_seconds_bucket", everyBucket)
                        .orElseThrow(() -> new AssertionError("no +Inf bucket\n" + durations))
                        .number();
        double count =
                durations
                        .sample("apiserver_request_duration_seconds_count", configMapCreate())
                        .orElseThrow(() -> new AssertionError("no count\n" + durations))
                        .number();
        assertEquals(count, inf, "the +Inf bucket holds every observation");
        assertTrue(count >= 1, "creates observed: " + count);
        assertTrue(
                durations
                        .sample("apiserver_request_duration_seconds_sum", configMapCreate())
                        .isPresent(),
                durations.toString());

        Family stored = family.get("apiserver_storage_objects");
        assertEquals("gauge", stored == null ? null : stored.type(), exposition);
        double configMaps =
                stored.sample("apiserver_storage_objects", Map.of("resource", "configmaps"))
                        .orElseThrow(() -> new AssertionError("no configmaps stored\n" + stored))
                        .number();
        assertTrue(configMaps >= 1, "configmaps stored: " + configMaps);
    }
}
