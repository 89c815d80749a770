package io.kubepekko.api.architecture;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Position;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.PackageDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.Name;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.TypePatternExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithExtends;
import com.github.javaparser.ast.nodeTypes.NodeWithImplements;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.TypeParameter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds types written fully qualified in code ({@code java.util.List}, {@code new
 * java.util.ArrayList<>()}, {@code java.util.Objects.requireNonNull(x)},
 * {@code @org.junit.jupiter.api.Test}) in Java sources. Comments, strings, {@code import} and
 * {@code package} lines are not code and never count.
 *
 * <p>Each occurrence says whether an import would do: it would not when the type's simple name is
 * already taken in the file by an imported type, a type declared in the file (nested ones too) or a
 * type parameter, a member type inherited from a supertype declared in the project, a type of the
 * file's package, a {@code java.lang} type, or another qualified type written in the same file.
 * Names are read without compiling: a qualifier is a package when its segments start lower case and
 * the first one is not a variable declared in the file, and the type is the first segment that
 * starts upper case.
 *
 * <p>Public with its positions so that a fixer can rewrite the occurrences the same rule finds.
 */
public final class QualifiedTypeNames {

    /**
     * One type written fully qualified.
     *
     * @param qualifierBegin where the package qualifier starts (1-based line and column)
     * @param nameBegin where the type's simple name starts: deleting from {@code qualifierBegin} up
     *     to here leaves the simple name
     * @param needsImport whether the simple name needs an import (not for {@code java.lang} or the
     *     file's own package, nor when the file imports the type already)
     * @param clash why an import would not do, or {@code null} when it would
     */
    public record Occurrence(
            Path file,
            String qualifiedName,
            String simpleName,
            Position qualifierBegin,
            Position nameBegin,
            boolean needsImport,
            String clash) {

        public int line() {
            return qualifierBegin.line;
        }

        @Override
        public String toString() {
            return file
                    + ":"
                    + line()
                    + ": "
                    + qualifiedName
                    + (clash == null ? "" : " (kept: " + clash + ")");
        }
    }

    private QualifiedTypeNames() {}

    /** The hand-written source roots of every module of the Maven project at {@code root}. */
    public static List<Path> sourceRoots(Path root) {
        try (Stream<Path> modules = Files.list(root)) {
            return modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml")))
                    .flatMap(m -> Stream.of(m.resolve("src/main/java"), m.resolve("src/test/java")))
                    .filter(Files::isDirectory)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every occurrence in the sources of every module of the Maven project at {@code root}. */
    public static List<Occurrence> scan(Path root) {
        Map<Path, String> sources = new TreeMap<>();
        for (Path sourceRoot : sourceRoots(root)) {
            try (Stream<Path> files = Files.walk(sourceRoot)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    sources.put(root.relativize(file), Files.readString(file));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return scan(sources);
    }

    /**
     * Every occurrence in the given sources (file name to text), read together for their packages'
     * types.
     */
    public static List<Occurrence> scan(Map<Path, String> sources) {
        // The whole project is ~1,400 files (QualifiedTypeNamesTest: 16 s of the suite's run), and
        // each file parses on its own: side by side on the machine's cores, one parser per thread
        // (a parser is not thread-safe). What is read across files comes after, in file order.
        ThreadLocal<JavaParser> parsers =
                ThreadLocal.withInitial(
                        () ->
                                new JavaParser(
                                        new ParserConfiguration()
                                                .setLanguageLevel(
                                                        ParserConfiguration.LanguageLevel.JAVA_17)
                                                .setAttributeComments(false)));
        Map<Path, CompilationUnit> parsed =
                sources.entrySet().parallelStream()
                        .collect(
                                Collectors.toConcurrentMap(
                                        Map.Entry::getKey, source -> parse(parsers.get(), source)));
        Map<Path, CompilationUnit> units = new LinkedHashMap<>();
        Map<String, Set<String>> packageTypes = new HashMap<>();
        Map<String, List<TypeShape>> shapes = new HashMap<>();
        for (Path file : sources.keySet()) {
            CompilationUnit unit = parsed.get(file);
            units.put(file, unit);
            Set<String> types = packageTypes.computeIfAbsent(packageOf(unit), p -> new HashSet<>());
            unit.getTypes().forEach(t -> types.add(t.getNameAsString()));
            unit.walk(
                    node -> {
                        if (node instanceof TypeDeclaration<?> t) {
                            shapes.computeIfAbsent(t.getNameAsString(), n -> new ArrayList<>())
                                    .add(TypeShape.of(t));
                        }
                    });
        }
        List<Occurrence> found = new ArrayList<>();
        units.forEach(
                (file, unit) ->
                        found.addAll(new FileScan(file, unit, packageTypes, shapes).occurrences()));
        found.sort(
                Comparator.comparing((Occurrence o) -> o.file().toString())
                        .thenComparing(o -> o.qualifierBegin()));
        return found;
    }

    private static CompilationUnit parse(JavaParser parser, Map.Entry<Path, String> source) {
        ParseResult<CompilationUnit> result = parser.parse(source.getValue());
        return result.getResult()
                .filter(u -> result.isSuccessful())
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        source.getKey()
                                                + " does not parse: "
                                                + result.getProblems()));
    }

    /**
     * A type's member types and the simple names of its supertypes, for what a subtype inherits.
     */
    private record TypeShape(Set<String> memberTypes, List<String> supertypes) {
        static TypeShape of(TypeDeclaration<?> t) {
            Set<String> members = new HashSet<>();
            t.getMembers()
                    .forEach(
                            m -> {
                                if (m instanceof TypeDeclaration<?> nested) {
                                    members.add(nested.getNameAsString());
                                }
                            });
            return new TypeShape(members, supertypeNames(t));
        }
    }

    private static List<String> supertypeNames(TypeDeclaration<?> t) {
        List<ClassOrInterfaceType> types = new ArrayList<>();
        if (t instanceof NodeWithExtends<?> e) {
            types.addAll(e.getExtendedTypes());
        }
        if (t instanceof NodeWithImplements<?> i) {
            types.addAll(i.getImplementedTypes());
        }
        return types.stream().map(ClassOrInterfaceType::getNameAsString).toList();
    }

    private static String packageOf(CompilationUnit unit) {
        return unit.getPackageDeclaration().map(PackageDeclaration::getNameAsString).orElse("");
    }

    private static boolean startsLower(String s) {
        return !s.isEmpty() && Character.isLowerCase(s.charAt(0));
    }

    private static boolean startsUpper(String s) {
        return !s.isEmpty() && Character.isUpperCase(s.charAt(0));
    }

    private static boolean isJavaLang(String simpleName) {
        try {
            Class.forName("java.lang." + simpleName, false, ClassLoader.getPlatformClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The occurrences of one file. */
    private static final class FileScan {
        private final Path file;
        private final CompilationUnit unit;
        private final String filePackage;
        private final Set<String> packageTypes;
        private final Map<String, String> imports = new HashMap<>();
        private final Set<String> staticImportNames = new HashSet<>();
        private final Set<String> declaredTypes = new HashSet<>();
        private final Set<String> topLevelTypes = new HashSet<>();
        private final Set<String> variables = new HashSet<>();
        private final Set<String> inheritedTypes = new HashSet<>();

        /** A candidate before its clash is known. */
        private record Candidate(
                String qualifiedName,
                String simpleName,
                Position qualifierBegin,
                Position nameBegin) {}

        FileScan(
                Path file,
                CompilationUnit unit,
                Map<String, Set<String>> packageTypes,
                Map<String, List<TypeShape>> shapes) {
            this.file = file;
            this.unit = unit;
            this.filePackage = packageOf(unit);
            this.packageTypes = packageTypes.getOrDefault(filePackage, Set.of());
            for (ImportDeclaration i : unit.getImports()) {
                if (i.isAsterisk()) {
                    continue;
                }
                if (i.isStatic()) {
                    staticImportNames.add(i.getName().getIdentifier());
                } else {
                    imports.put(i.getName().getIdentifier(), i.getNameAsString());
                }
            }
            unit.getTypes().forEach(t -> topLevelTypes.add(t.getNameAsString()));
            unit.walk(
                    node -> {
                        if (node instanceof TypeDeclaration<?> t) {
                            declaredTypes.add(t.getNameAsString());
                            inherit(supertypeNames(t), shapes, new HashSet<>());
                        }
                    });
            unit.findAll(TypeParameter.class).forEach(t -> declaredTypes.add(t.getNameAsString()));
            unit.findAll(VariableDeclarator.class).forEach(v -> variables.add(v.getNameAsString()));
            unit.findAll(Parameter.class).forEach(p -> variables.add(p.getNameAsString()));
            unit.findAll(TypePatternExpr.class).forEach(p -> variables.add(p.getNameAsString()));
        }

        /**
         * The member types the file's types inherit from supertypes declared in this project,
         * matched by simple name (any type of that name counts: a clash too many only keeps a
         * qualified name).
         */
        private void inherit(
                List<String> supertypes, Map<String, List<TypeShape>> shapes, Set<String> seen) {
            for (String supertype : supertypes) {
                if (seen.add(supertype)) {
                    for (TypeShape shape : shapes.getOrDefault(supertype, List.of())) {
                        inheritedTypes.addAll(shape.memberTypes());
                        inherit(shape.supertypes(), shapes, seen);
                    }
                }
            }
        }

        List<Occurrence> occurrences() {
            List<Candidate> candidates = new ArrayList<>();
            for (ClassOrInterfaceType type : unit.findAll(ClassOrInterfaceType.class)) {
                if (type.getParentNode()
                        .filter(
                                p ->
                                        p instanceof ClassOrInterfaceType c
                                                && c.getScope().filter(s -> s == type).isPresent())
                        .isEmpty()) {
                    typeCandidate(type, candidates);
                }
            }
            for (NameExpr name : unit.findAll(NameExpr.class)) {
                expressionCandidate(name, candidates);
            }
            for (AnnotationExpr annotation : unit.findAll(AnnotationExpr.class)) {
                annotationCandidate(annotation.getName(), candidates);
            }
            Map<String, Set<String>> qualifiedBySimple = new HashMap<>();
            candidates.forEach(
                    c ->
                            qualifiedBySimple
                                    .computeIfAbsent(c.simpleName(), s -> new HashSet<>())
                                    .add(c.qualifiedName()));
            List<Occurrence> found = new ArrayList<>();
            for (Candidate c : candidates) {
                String pkg = c.qualifiedName().substring(0, c.qualifiedName().lastIndexOf('.'));
                boolean samePackage = pkg.equals(filePackage);
                boolean javaLang = pkg.equals("java.lang");
                String imported = imports.get(c.simpleName());
                String clash =
                        clash(
                                c,
                                samePackage,
                                javaLang,
                                imported,
                                qualifiedBySimple.get(c.simpleName()));
                boolean needsImport = !samePackage && !javaLang && imported == null;
                found.add(
                        new Occurrence(
                                file,
                                c.qualifiedName(),
                                c.simpleName(),
                                c.qualifierBegin(),
                                c.nameBegin(),
                                needsImport,
                                clash));
            }
            return found;
        }

        private String clash(
                Candidate c,
                boolean samePackage,
                boolean javaLang,
                String imported,
                Set<String> sameSimpleName) {
            String simple = c.simpleName();
            if (imported != null && !imported.equals(c.qualifiedName())) {
                return "the file imports " + imported;
            }
            if (declaredTypes.contains(simple)
                    && !(samePackage && topLevelTypes.contains(simple))) {
                return "the file declares a type " + simple;
            }
            if (inheritedTypes.contains(simple)) {
                return "a supertype has a member type " + simple;
            }
            if (!samePackage && packageTypes.contains(simple)) {
                return "its package has a type " + simple;
            }
            if (!javaLang && isJavaLang(simple)) {
                return "java.lang." + simple;
            }
            if (staticImportNames.contains(simple)) {
                return "the file imports a static member " + simple;
            }
            if (sameSimpleName.size() > 1) {
                return "the file also writes "
                        + sameSimpleName.stream()
                                .filter(q -> !q.equals(c.qualifiedName()))
                                .sorted()
                                .toList();
            }
            return null;
        }

        /** {@code a.b.C.D}: the segments before the first upper-case one must all be lower case. */
        private static int typeIndex(List<String> segments) {
            for (int i = 0; i < segments.size(); i++) {
                if (startsUpper(segments.get(i))) {
                    return i;
                }
                if (!startsLower(segments.get(i))) {
                    return -1;
                }
            }
            return -1;
        }

        private void typeCandidate(ClassOrInterfaceType outermost, List<Candidate> candidates) {
            List<ClassOrInterfaceType> chain = new ArrayList<>();
            for (ClassOrInterfaceType t = outermost; t != null; t = t.getScope().orElse(null)) {
                chain.add(0, t);
            }
            int i = typeIndex(chain.stream().map(ClassOrInterfaceType::getNameAsString).toList());
            if (i >= 1) {
                add(
                        candidates,
                        chain.get(i).asString(),
                        chain.get(i).getNameAsString(),
                        chain.get(0),
                        chain.get(i).getName());
            }
        }

        private void expressionCandidate(NameExpr first, List<Candidate> candidates) {
            if (variables.contains(first.getNameAsString())) {
                return;
            }
            List<Node> chain = new ArrayList<>(List.of(first));
            List<String> segments = new ArrayList<>(List.of(first.getNameAsString()));
            Node current = first;
            while (current.getParentNode().orElse(null) instanceof FieldAccessExpr f
                    && f.getScope() == current) {
                chain.add(f);
                segments.add(f.getNameAsString());
                current = f;
            }
            int i = typeIndex(segments);
            if (i >= 1) {
                FieldAccessExpr type = (FieldAccessExpr) chain.get(i);
                add(
                        candidates,
                        String.join(".", segments.subList(0, i + 1)),
                        segments.get(i),
                        first,
                        type.getName());
            }
        }

        private void annotationCandidate(Name name, List<Candidate> candidates) {
            List<Name> chain = new ArrayList<>();
            for (Name n = name; n != null; n = n.getQualifier().orElse(null)) {
                chain.add(0, n);
            }
            int i = typeIndex(chain.stream().map(Name::getIdentifier).toList());
            if (i >= 1) {
                Name type = chain.get(i);
                Position end = type.getEnd().orElseThrow();
                Position nameBegin =
                        new Position(end.line, end.column - type.getIdentifier().length() + 1);
                candidates.add(
                        new Candidate(
                                type.asString(),
                                type.getIdentifier(),
                                chain.get(0).getBegin().orElseThrow(),
                                nameBegin));
            }
        }

        private static void add(
                List<Candidate> candidates,
                String typeWithQualifier,
                String simpleName,
                Node qualifier,
                Node name) {
            // A type argument list is not part of the name: strip it from
            // ClassOrInterfaceType#asString.
            String qualifiedName = typeWithQualifier.replaceAll("<.*", "");
            candidates.add(
                    new Candidate(
                            qualifiedName,
                            simpleName,
                            qualifier.getBegin().orElseThrow(),
                            name.getBegin().orElseThrow()));
        }
    }
}
