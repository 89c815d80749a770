package io.kubepekko.api.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.architecture.QualifiedTypeNames.Occurrence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * House rule of the whole project (every module's main and test sources, read from here once): a
 * type is imported and written by its simple name, not fully qualified in code, wherever an import
 * would do. ArchUnit cannot see this (bytecode has only qualified names), so the sources are
 * parsed.
 */
class QualifiedTypeNamesTest {

    @Test
    void noTypeIsWrittenFullyQualifiedWhereAnImportWouldDo() {
        List<Occurrence> offending =
                QualifiedTypeNames.scan(projectRoot()).stream()
                        .filter(o -> o.clash() == null)
                        .toList();
        assertTrue(
                offending.isEmpty(),
                () ->
                        offending.size()
                                + " types written fully qualified where an import would do (import them):\n"
                                + offending.stream()
                                        .map(Occurrence::toString)
                                        .collect(Collectors.joining("\n")));
    }

    @Test
    void findsQualifiedTypesInCodeOnly() {
        List<Occurrence> found =
                scan(
                        """
                package p.q;

                import java.util.List;

                /** {@link java.util.Map} in a comment is fine. */
                @org.junit.jupiter.api.Tag("x")
                class A {
                    // java.util.Set in a comment too
                    String s = "java.util.Deque";
                    java.util.Map<String, java.time.Duration> m = new java.util.HashMap<>();
                    java.util.Map.Entry<String, String> e;
                    List<String> l = java.util.List.of();
                    Object o = java.util.Objects.requireNonNull(s);
                    java.lang.String t;
                    p.q.B b;
                    void run() throws java.io.IOException {
                        int v = node.next.Value;
                    }
                    Cell node;
                    static class Cell { Cell next; int Value; }
                }
                """);
        assertEquals(
                List.of(
                        "6 org.junit.jupiter.api.Tag import",
                        "10 java.util.Map import",
                        "10 java.time.Duration import",
                        "10 java.util.HashMap import",
                        "11 java.util.Map import",
                        "12 java.util.List",
                        "13 java.util.Objects import",
                        "14 java.lang.String",
                        "15 p.q.B",
                        "16 java.io.IOException import"),
                describe(found));
    }

    @Test
    void keepsQualifiedTypesWhoseSimpleNameIsTaken() {
        List<Occurrence> found =
                scan(
                        """
                package p.q;

                import java.awt.List;

                class A {
                    java.util.List<String> imported;
                    other.B samePackage;
                    other.Inner nested;
                    other.String javaLang;
                    java.util.Date one;
                    java.sql.Date two;
                    static class Inner {}
                }

                class Sub extends B {
                    other.Nested inherited;
                }
                """);
        assertEquals(
                List.of(
                        "6 java.util.List: the file imports java.awt.List",
                        "7 other.B: its package has a type B",
                        "8 other.Inner: the file declares a type Inner",
                        "9 other.String: java.lang.String",
                        "10 java.util.Date: the file also writes [java.sql.Date]",
                        "11 java.sql.Date: the file also writes [java.util.Date]",
                        "16 other.Nested: a supertype has a member type Nested"),
                found.stream()
                        .map(o -> o.line() + " " + o.qualifiedName() + ": " + o.clash())
                        .toList());
    }

    private static List<Occurrence> scan(String source) {
        return QualifiedTypeNames.scan(
                Map.of(
                        Path.of("A.java"),
                        source,
                        Path.of("B.java"),
                        "package p.q; class B { interface Nested {} }"));
    }

    private static List<String> describe(List<Occurrence> found) {
        return found.stream()
                .map(
                        o ->
                                o.line()
                                        + " "
                                        + o.qualifiedName()
                                        + (o.needsImport() ? " import" : "")
                                        + (o.clash() == null ? "" : " " + o.clash()))
                .toList();
    }

    /** The Maven project's root: the nearest directory up from here whose pom lists modules. */
    private static Path projectRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
                    return dir;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException(
                "no Maven project with modules above " + Path.of("").toAbsolutePath());
    }
}
