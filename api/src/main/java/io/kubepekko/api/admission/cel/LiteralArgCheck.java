package io.kubepekko.api.admission.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelSource;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.ast.CelExprFactory;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.TraversalOrder;
import dev.cel.validator.CelAstValidator;

/**
 * cel-go's literal validators that kube's base environment adds from compatibility version 1.29
 * ({@code cel.ValidateDurationLiterals()}, {@code ValidateTimestampLiterals()}, {@code
 * ValidateRegexLiterals()}): a call of the function whose first argument (the target of a member
 * call not counted) is a literal is checked when compiled, and a literal that would fail is the
 * error {@code invalid <function> argument} at the literal ({@code duration('1x')}, {@code
 * 'a'.matches('[')}).
 */
final class LiteralArgCheck implements CelAstValidator {

    /** Whether a literal argument is valid for the call. */
    interface Check {
        boolean valid(Cel cel, String function, CelConstant literal);
    }

    private final String function;
    private final Check check;

    private LiteralArgCheck(String function, Check check) {
        this.function = function;
        this.check = check;
    }

    /** {@code duration(<literal>)}: the call must evaluate, as cel-go's evaluates it. */
    static LiteralArgCheck durations() {
        return new LiteralArgCheck("duration", LiteralArgCheck::evaluates);
    }

    /** {@code timestamp(<literal>)}: the call must evaluate. */
    static LiteralArgCheck timestamps() {
        return new LiteralArgCheck("timestamp", LiteralArgCheck::evaluates);
    }

    /**
     * {@code matches}: the first argument must be a regular expression Go compiles. As cel-go's,
     * the first argument: the pattern of {@code s.matches(p)} but the string of the global {@code
     * matches(s, p)}.
     */
    static LiteralArgCheck regexes() {
        return new LiteralArgCheck(
                "matches",
                (cel, f, literal) ->
                        literal.getKind() != CelConstant.Kind.STRING_VALUE
                                || GoRegex.compiles(literal.stringValue()));
    }

    @Override
    public void validate(CelNavigableAst navigableAst, Cel cel, IssuesFactory issues) {
        navigableAst
                .getRoot()
                .allNodes(TraversalOrder.POST_ORDER)
                .filter(n -> n.getKind() == Kind.CALL)
                .map(n -> n.expr().call())
                .filter(c -> c.function().equals(function) && !c.args().isEmpty())
                .map(c -> c.args().get(0))
                .filter(arg -> arg.getKind() == Kind.CONSTANT)
                .filter(arg -> !check.valid(cel, function, arg.constant()))
                .forEach(arg -> issues.addError(arg.id(), "invalid " + function + " argument"));
    }

    /**
     * cel-go evaluates the call alone; so does this, in the same environment, so that a literal
     * passes here exactly when it would when the expression runs.
     */
    private static boolean evaluates(Cel cel, String function, CelConstant literal) {
        CelExprFactory factory = CelExprFactory.newInstance();
        CelExpr call = factory.newGlobalCall(function, factory.newConstant(literal));
        try {
            CelAbstractSyntaxTree ast =
                    cel.check(
                                    CelAbstractSyntaxTree.newParsedAst(
                                            call, CelSource.newBuilder().build()))
                            .getAst();
            cel.createProgram(ast).eval();
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
