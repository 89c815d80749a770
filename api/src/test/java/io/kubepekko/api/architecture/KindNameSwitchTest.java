package io.kubepekko.api.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.definition.BuiltinKinds;
import io.kubepekko.api.registry.ResourceType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * House rule: what a kind does is decided in {@code api/} (its definition, strategy, printer), so
 * no main code outside api switches on a built-in kind's name ({@code case "Pod" ->}) or its
 * resource name ({@code case "pods":}). Bytecode keeps no switch labels, so this reads the sources
 * of every other module. Tests are exempt: a fixture may well build a body per kind.
 */
class KindNameSwitchTest {
    /** Modules whose main sources the rule covers: every module but api itself. */
    private static final List<String> MODULES =
            List.of("persistence", "actors", "http", "agent", "bench", "cluster-config");

    /**
     * Places allowed to switch on a kind name, each with the reason; empty today. A new entry needs
     * a reason why the decision cannot live in api (a path relative to the repository root, then
     * why).
     */
    private static final Map<String, String> ALLOWED = Map.of();

    /** A case label list: {@code case "A"}, {@code case "A", "B" ->}. */
    private static final Pattern CASE =
            Pattern.compile("\\bcase\\s+(\"[^\"]*\"(?:\\s*,\\s*\"[^\"]*\")*)");

    private static final Pattern LITERAL = Pattern.compile("\"([^\"]*)\"");

    @Test
    void noModuleOutsideApiSwitchesOnABuiltinKindName() throws IOException {
        Set<String> names = kindNames();
        Path root = repositoryRoot();
        List<String> hits = new ArrayList<>();
        int scanned = 0;
        for (String module : MODULES) {
            Path sources = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    scanned++;
                    String relative = root.relativize(file).toString();
                    if (!ALLOWED.containsKey(relative)) {
                        hits.addAll(kindCases(relative, Files.readAllLines(file), names));
                    }
                }
            }
        }
        assertTrue(
                scanned > 100,
                "the scan found the other modules' sources under "
                        + root
                        + " ("
                        + scanned
                        + " files)");
        assertEquals(
                List.of(),
                hits,
                "switch on a kind name outside api: move the decision into the kind's "
                        + "definition or strategy in api/ (or allowlist the file in KindNameSwitchTest.ALLOWED with why)");
    }

    /**
     * The scan itself: a label naming a kind is found, alone or in a list; other strings are not.
     */
    @Test
    void findsKindNamesInCaseLabels() {
        Set<String> names = kindNames();
        List<String> lines =
                List.of(
                        "switch (kind) {",
                        "    case \"Pod\" -> a();",
                        "    case \"Secret\", \"services\": b();",
                        "    case \"Podcast\" -> c();",
                        "    case \"status\" -> d();",
                        "}");
        assertEquals(
                List.of(
                        "X.java:2: case \"Pod\" -> a();",
                        "X.java:3: case \"Secret\", \"services\": b();"),
                kindCases("X.java", lines, names));
    }

    static List<String> kindCases(String file, List<String> lines, Set<String> kindNames) {
        List<String> hits = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher labels = CASE.matcher(lines.get(i));
            while (labels.find()) {
                Matcher literal = LITERAL.matcher(labels.group(1));
                boolean kind = false;
                while (literal.find()) {
                    kind |= kindNames.contains(literal.group(1));
                }
                if (kind) {
                    hits.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                    break;
                }
            }
        }
        return hits;
    }

    /**
     * Every built-in kind's name and resource name, from the definitions: a new kind is covered as
     * it is added.
     */
    private static Set<String> kindNames() {
        Set<String> names = new TreeSet<>();
        BuiltinKinds.all()
                .forEach(
                        d -> {
                            ResourceType type = d.type();
                            names.add(type.kind());
                            names.add(type.resource());
                        });
        return names;
    }

    /**
     * The repository root: the nearest ancestor of the working directory that holds the api module.
     */
    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pom.xml"))
                    && Files.isDirectory(p.resolve("api/src/main/java/io/kubepekko/api"))) {
                return p;
            }
        }
        throw new IllegalStateException("no kubepekko checkout above " + dir);
    }
}
