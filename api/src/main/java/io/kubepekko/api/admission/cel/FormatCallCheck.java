package io.kubepekko.api.admission.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.validator.CelAstValidator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * cel-go's {@code stringFormatValidator}, which kube's strings library (version 2) runs when an
 * expression is compiled: a {@code format} call on a literal string with a list literal is checked
 * clause by clause against the types of the list's elements (recursing into nested list and map
 * literals for {@code %s}), with the number of arguments; a dyn element passes. Its errors become
 * the compilation's ({@code too many arguments supplied to string.format (expected 1, got 2)}).
 */
final class FormatCallCheck implements CelAstValidator {

    private static final Set<CelKind> STRING_KINDS =
            EnumSet.of(
                    CelKind.LIST,
                    CelKind.MAP,
                    CelKind.INT,
                    CelKind.UINT,
                    CelKind.DOUBLE,
                    CelKind.BOOL,
                    CelKind.STRING,
                    CelKind.TIMESTAMP,
                    CelKind.BYTES,
                    CelKind.DURATION,
                    CelKind.TYPE,
                    CelKind.NULL_TYPE);

    @Override
    public void validate(CelNavigableAst navigableAst, Cel cel, IssuesFactory issues) {
        CelAbstractSyntaxTree ast = navigableAst.getAst();
        navigableAst
                .getRoot()
                .allNodes()
                .map(CelNavigableExpr::expr)
                .filter(e -> literalFormatCall(ast, e))
                .forEach(e -> check(ast, e, issues));
    }

    /** A member call of {@code format} on a literal string with one list literal. */
    private static boolean literalFormatCall(CelAbstractSyntaxTree ast, CelExpr e) {
        if (e.getKind() != Kind.CALL) {
            return false;
        }
        CelExpr.CelCall call = e.call();
        if (!call.function().equals("format") || call.target().isEmpty()) {
            return false;
        }
        boolean stringFormat =
                ast.getReference(e.id())
                        .map(r -> r.overloadIds().contains(CelStringFormat.OVERLOAD))
                        .orElse(true);
        CelExpr target = call.target().get();
        return stringFormat
                && target.getKind() == Kind.CONSTANT
                && target.constant().getKind() == CelConstant.Kind.STRING_VALUE
                && call.args().size() == 1
                && call.args().get(0).getKind() == Kind.LIST;
    }

    private static void check(CelAbstractSyntaxTree ast, CelExpr call, IssuesFactory issues) {
        String format = call.call().target().orElseThrow().constant().stringValue();
        List<CelExpr> elements = call.call().args().get(0).list().elements();
        Checker checker = new Checker(ast, elements);
        try {
            new FormatString<>(checker, checker).format(format);
        } catch (FormatString.Failure f) {
            issues.addError(f.exprId() >= 0 ? f.exprId() : call.id(), f.getMessage());
            return;
        }
        if (elements.size() > checker.requested) {
            issues.addError(
                    call.id(),
                    "too many arguments supplied to string.format (expected "
                            + checker.requested
                            + ", got "
                            + elements.size()
                            + ")");
        }
    }

    /** cel-go's {@code stringFormatChecker}: each clause against its argument's checked type. */
    private static final class Checker
            implements FormatString.Clauses<CelExpr>, FormatString.Args<CelExpr> {
        private final CelAbstractSyntaxTree ast;
        private final List<CelExpr> args;
        private int requested;

        Checker(CelAbstractSyntaxTree ast, List<CelExpr> args) {
            this.ast = ast;
            this.args = args;
        }

        @Override
        public CelExpr arg(int index) {
            requested++;
            return index < args.size() ? args.get(index) : null;
        }

        @Override
        public int size() {
            return args.size();
        }

        @Override
        public String string(CelExpr arg) throws FormatString.Failure {
            verifyString(arg);
            return "";
        }

        @Override
        public String decimal(CelExpr arg) throws FormatString.Failure {
            return require(
                    arg, "decimal clause can only be used on integers", CelKind.INT, CelKind.UINT);
        }

        @Override
        public String fixed(Long precision, CelExpr arg) throws FormatString.Failure {
            // Strings too: "NaN", "Infinity" and "-Infinity" are valid.
            return require(
                    arg,
                    "fixed-point clause can only be used on doubles",
                    CelKind.DOUBLE,
                    CelKind.STRING);
        }

        @Override
        public String scientific(Long precision, CelExpr arg) throws FormatString.Failure {
            return require(
                    arg,
                    "scientific clause can only be used on doubles",
                    CelKind.DOUBLE,
                    CelKind.STRING);
        }

        @Override
        public String binary(CelExpr arg) throws FormatString.Failure {
            return require(
                    arg,
                    "only integers and bools can be formatted as binary",
                    CelKind.INT,
                    CelKind.UINT,
                    CelKind.BOOL);
        }

        @Override
        public String hex(boolean upper, CelExpr arg) throws FormatString.Failure {
            return require(
                    arg,
                    "only integers, byte buffers, and strings can be formatted as hex",
                    CelKind.INT,
                    CelKind.UINT,
                    CelKind.STRING,
                    CelKind.BYTES);
        }

        @Override
        public String octal(CelExpr arg) throws FormatString.Failure {
            return require(
                    arg, "octal clause can only be used on integers", CelKind.INT, CelKind.UINT);
        }

        private String require(CelExpr arg, String what, CelKind... kinds)
                throws FormatString.Failure {
            CelType type = typeOf(arg);
            if (!type.equals(SimpleType.DYN) && !List.of(kinds).contains(type.kind())) {
                throw new FormatString.Failure(arg.id(), what + ", was given " + type.name());
            }
            return "";
        }

        private void verifyString(CelExpr arg) throws FormatString.Failure {
            CelType type = typeOf(arg);
            if (!type.equals(SimpleType.DYN) && !STRING_KINDS.contains(type.kind())) {
                throw new FormatString.Failure(
                        arg.id(),
                        "string clause can only be used on strings, bools, bytes, ints, doubles,"
                                + " maps, lists, types, durations, and timestamps, was given "
                                + type.name());
            }
            if (arg.getKind() == Kind.LIST) {
                for (CelExpr element : arg.list().elements()) {
                    verifyString(element);
                }
            } else if (arg.getKind() == Kind.MAP) {
                for (CelExpr.CelMap.Entry entry : arg.map().entries()) {
                    verifyString(entry.key());
                    verifyString(entry.value());
                }
            }
        }

        private CelType typeOf(CelExpr e) {
            return ast.getType(e.id()).orElse(SimpleType.DYN);
        }
    }
}
