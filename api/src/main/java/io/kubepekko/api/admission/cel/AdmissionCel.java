package io.kubepekko.api.admission.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeLibrary;
import dev.cel.validator.CelAstValidator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL environment of admission expressions (kube's {@code k8s.io/apiserver/pkg/admission/plugin
 * /cel} compiler): the variables {@code object} and {@code oldObject} (dyn), {@code request} (typed
 * as kube's {@code kubernetes.AdmissionRequest}), {@code namespaceObject} (declared, never bound
 * for webhooks, as in kube), {@code authorizer} and {@code authorizer.requestResource}; CEL's
 * standard library and macros with cel-java's extensions that kube's environment also has: strings,
 * optional types, sets, lists, two-variable comprehensions and {@code cel.bind}; cel-go's strings
 * {@code format}, which cel-java lacks; and kube's own regex ({@code find}, {@code findAll}), lists
 * ({@code isSorted}, {@code sum}, {@code min}, {@code max}, {@code indexOf}, {@code lastIndexOf}),
 * authorizer, ip and cidr, quantity, url, semver and format libraries. Expressions must be bool.
 * Thread-safe: one instance serves every compile and evaluation.
 */
public final class AdmissionCel {

    /** kube's bound on a comprehension's iterations: a runaway condition fails, not the server. */
    private static final int MAX_ITERATIONS = 1_000_000;

    private static final StructType GVK =
            struct("kubernetes.GroupVersionKind", stringFields("group", "version", "kind"));
    private static final StructType GVR =
            struct("kubernetes.GroupVersionResource", stringFields("group", "version", "resource"));
    private static final StructType USER_INFO =
            struct(
                    "kubernetes.UserInfo",
                    Map.of(
                            "username",
                            SimpleType.STRING,
                            "uid",
                            SimpleType.STRING,
                            "groups",
                            ListType.create(SimpleType.STRING),
                            "extra",
                            MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING))));
    private static final StructType REQUEST =
            struct(
                    "kubernetes.AdmissionRequest",
                    Map.ofEntries(
                            Map.entry("kind", GVK),
                            Map.entry("resource", GVR),
                            Map.entry("subResource", SimpleType.STRING),
                            Map.entry("requestKind", GVK),
                            Map.entry("requestResource", GVR),
                            Map.entry("requestSubResource", SimpleType.STRING),
                            Map.entry("name", SimpleType.STRING),
                            Map.entry("namespace", SimpleType.STRING),
                            Map.entry("operation", SimpleType.STRING),
                            Map.entry("userInfo", USER_INFO),
                            Map.entry("dryRun", SimpleType.BOOL),
                            Map.entry("options", SimpleType.DYN)));

    /** cel-go's bound on the errors an expression's compilation reports. */
    private static final int MAX_ERRORS = 100;

    private static final AdmissionCel INSTANCE = new AdmissionCel();

    private final Cel cel;

    /**
     * The checks kube's environment runs after type-checking (cel-go's AST validators), in the
     * order kube's base environment adds them.
     */
    private final List<CelAstValidator> validators =
            List.of(
                    new HomogeneousLiteralCheck(),
                    LiteralArgCheck.durations(),
                    LiteralArgCheck.timestamps(),
                    LiteralArgCheck.regexes(),
                    new FormatCallCheck());

    private AdmissionCel() {
        CelOptions options =
                CelOptions.current()
                        .enableOptionalSyntax(true)
                        .enableHeterogeneousNumericComparisons(true)
                        .comprehensionMaxIterations(MAX_ITERATIONS)
                        .build();
        List<Object> libraries =
                List.of(
                        // kube's strings extension is cel-go's version 2: string reverse()
                        // (cel-go's version 3) is not in it.
                        CelExtensions.strings(
                                EnumSet.complementOf(
                                        EnumSet.of(CelStringExtensions.Function.REVERSE))),
                        CelExtensions.optional(),
                        CelExtensions.sets(options),
                        CelExtensions.lists(),
                        CelExtensions.comprehensions());
        cel =
                CelFactory.standardCelBuilder()
                        .setOptions(options)
                        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                        .setTypeProvider(new Types())
                        .addVar("object", SimpleType.DYN)
                        .addVar("oldObject", SimpleType.DYN)
                        .addVar("namespaceObject", SimpleType.DYN)
                        .addVar("request", REQUEST)
                        .addVar("authorizer", CelAuthorizer.AUTHORIZER)
                        .addVar("authorizer.requestResource", CelAuthorizer.RESOURCE_CHECK)
                        .addFunctionDeclarations(CelAuthorizer.declarations())
                        .addFunctionBindings(CelAuthorizer.bindings())
                        .addFunctionDeclarations(CelRegex.declarations())
                        .addFunctionBindings(CelRegex.bindings())
                        .addFunctionDeclarations(CelLists.declarations())
                        .addFunctionBindings(CelLists.bindings())
                        .addFunctionDeclarations(CelNet.declarations())
                        .addFunctionBindings(CelNet.bindings())
                        .addFunctionDeclarations(CelQuantity.declarations())
                        .addFunctionBindings(CelQuantity.bindings())
                        .addFunctionDeclarations(CelUrls.declarations())
                        .addFunctionBindings(CelUrls.bindings())
                        .addFunctionDeclarations(CelSemver.declarations())
                        .addFunctionBindings(CelSemver.bindings())
                        .addFunctionDeclarations(CelFormat.declarations())
                        .addFunctionBindings(CelFormat.bindings())
                        .addFunctionDeclarations(CelStringFormat.declarations())
                        .addFunctionBindings(CelStringFormat.bindings())
                        .addCompilerLibraries(
                                libraries.stream().map(CelCompilerLibrary.class::cast).toList())
                        .addCompilerLibraries(CelExtensions.bindings())
                        .addRuntimeLibraries(
                                libraries.stream().map(CelRuntimeLibrary.class::cast).toList())
                        .build();
    }

    /** The one environment. */
    public static AdmissionCel get() {
        return INSTANCE;
    }

    /** A compiled expression, or why it does not compile in kube's words. */
    public sealed interface Compiled {}

    /** A program ready to evaluate. */
    public record Program(String expression, CelRuntime.Program program) implements Compiled {

        /** The expression's result, or the evaluation's failure. */
        Object eval(Map<String, ?> variables) throws CelEvaluationException {
            return program.eval(variables);
        }
    }

    /** An expression kube would not accept: the detail of its {@code Invalid} field error. */
    public record Invalid(String expression, String detail) implements Compiled {}

    /** Compiles a bool expression, as kube's {@code CompileCELExpression}. */
    public Compiled compile(String expression) {
        return compile(expression, SimpleType.BOOL);
    }

    /**
     * Compiles an expression of the given result type (kube's expression accessors' {@code
     * ReturnTypes}; matchConditions' is bool).
     */
    Compiled compile(String expression, CelType resultType) {
        CelValidationResult result = cel.compile(expression);
        if (result.hasError()) {
            return new Invalid(expression, "compilation failed: " + result.getErrorString());
        }
        CelAbstractSyntaxTree ast;
        try {
            ast = result.getAst();
        } catch (Exception e) {
            return new Invalid(expression, "compilation failed: " + e.getMessage());
        }
        String issues = validate(ast);
        if (!issues.isEmpty()) {
            return new Invalid(expression, "compilation failed: " + issues);
        }
        CelType type = ast.getResultType();
        if (!type.equals(resultType)) {
            return new Invalid(
                    expression,
                    "must evaluate to "
                            + CelTypes.format(resultType)
                            + " but got "
                            + CelTypes.format(type));
        }
        try {
            return new Program(expression, cel.createProgram(ast));
        } catch (Exception e) {
            return new Invalid(expression, "program instantiation failed: " + e.getMessage());
        }
    }

    /**
     * The validators' errors as cel-go's {@code Issues} prints them: at most 100, sorted by
     * position, then how many more there were. cel-java's own {@code CelValidator} would build a
     * new environment per validator on every compile; the environment needs no result type here.
     */
    private String validate(CelAbstractSyntaxTree ast) {
        CelNavigableAst navigable = CelNavigableAst.fromAst(ast);
        CelAstValidator.IssuesFactory issues = new CelAstValidator.IssuesFactory(navigable);
        for (CelAstValidator v : validators) {
            v.validate(navigable, cel, issues);
        }
        List<CelIssue> errors = issues.getIssues();
        if (errors.isEmpty()) {
            return "";
        }
        // cel-go keeps the first 100 reported, then sorts them by position.
        List<CelIssue> shown =
                new ArrayList<>(errors.subList(0, Math.min(errors.size(), MAX_ERRORS)));
        shown.sort(Comparator.comparing(CelIssue::getSourceLocation));
        String text = CelIssue.toDisplayString(shown, ast.getSource());
        if (errors.size() > MAX_ERRORS) {
            text += "\n" + (errors.size() - MAX_ERRORS) + " more errors were truncated";
        }
        return text;
    }

    private static Map<String, CelType> stringFields(String... names) {
        return Map.of(
                names[0],
                SimpleType.STRING,
                names[1],
                SimpleType.STRING,
                names[2],
                SimpleType.STRING);
    }

    private static StructType struct(String name, Map<String, CelType> fields) {
        return StructType.create(
                name,
                ImmutableSet.copyOf(fields.keySet()),
                field -> Optional.ofNullable(fields.get(field)));
    }

    /**
     * The struct types of the {@code request} variable and kube's libraries' own types, for the
     * checker: a type's name is a type value ({@code type(cidr('10.0.0.0/8')) == net.CIDR}).
     */
    private static final class Types implements CelTypeProvider {
        private final ImmutableList<CelType> types =
                ImmutableList.of(
                        GVK,
                        GVR,
                        USER_INFO,
                        REQUEST,
                        CelNet.IP,
                        CelNet.CIDR,
                        CelQuantity.QUANTITY,
                        CelUrls.URL,
                        CelSemver.SEMVER,
                        CelFormat.FORMAT,
                        CelAuthorizer.AUTHORIZER,
                        CelAuthorizer.PATH_CHECK,
                        CelAuthorizer.GROUP_CHECK,
                        CelAuthorizer.RESOURCE_CHECK,
                        CelAuthorizer.DECISION);

        @Override
        public ImmutableCollection<CelType> types() {
            return types;
        }

        @Override
        public Optional<CelType> findType(String typeName) {
            return types.stream().filter(t -> t.name().equals(typeName)).findFirst();
        }
    }
}
