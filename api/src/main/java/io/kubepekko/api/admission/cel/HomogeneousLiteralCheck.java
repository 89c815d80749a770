package io.kubepekko.api.admission.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.navigation.TraversalOrder;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.validator.CelAstValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * cel-go's {@code ValidateHomogeneousAggregateLiterals}, which kube's base environment has had
 * since its first CEL ({@code cel.HomogeneousAggregateLiterals()}): the elements of a list literal,
 * and the keys and the values of a map literal, must all have the type of the first one ({@code [1,
 * 'a']}: {@code expected type 'int' but found 'string'}, at the element). A list stops at its first
 * mismatch, a map reports every entry's. Literals anywhere inside a {@code format} call are exempt,
 * as the strings library asks (its argument list mixes types by design). Types are compared as
 * cel-go's {@code IsEquivalentType}: same kind, name and parameters, so {@code dyn} differs from
 * {@code int}.
 */
final class HomogeneousLiteralCheck implements CelAstValidator {

    private static final Set<String> EXEMPT = Set.of("format");

    @Override
    public void validate(CelNavigableAst navigableAst, Cel cel, IssuesFactory issues) {
        // cel-go's order, which decides which errors past its 100th are dropped: every list, then
        // every map, each in post-order.
        CelAbstractSyntaxTree ast = navigableAst.getAst();
        literals(navigableAst, Kind.LIST).forEach(e -> checkList(ast, e.list(), issues));
        literals(navigableAst, Kind.MAP).forEach(e -> checkMap(ast, e.map(), issues));
    }

    private static Stream<CelExpr> literals(CelNavigableAst navigableAst, Kind kind) {
        return navigableAst
                .getRoot()
                .allNodes(TraversalOrder.POST_ORDER)
                .filter(n -> n.getKind() == kind)
                .filter(n -> !inExemptCall(n))
                .map(CelNavigableExpr::expr);
    }

    private static void checkList(
            CelAbstractSyntaxTree ast, CelExpr.CelList list, IssuesFactory issues) {
        Set<Integer> optional = new HashSet<>(list.optionalIndices());
        List<CelExpr> elements = list.elements();
        CelType first = null;
        for (int i = 0; i < elements.size(); i++) {
            CelExpr element = elements.get(i);
            CelType type = typeOf(ast, element, optional.contains(i));
            if (first == null) {
                first = type;
            } else if (!equivalent(first, type)) {
                mismatch(issues, element, first, type);
                return;
            }
        }
    }

    private static void checkMap(
            CelAbstractSyntaxTree ast, CelExpr.CelMap map, IssuesFactory issues) {
        CelType firstKey = null;
        CelType firstValue = null;
        for (CelExpr.CelMap.Entry entry : map.entries()) {
            CelType key = typeOf(ast, entry.key(), false);
            CelType value = typeOf(ast, entry.value(), entry.optionalEntry());
            if (firstKey == null) {
                firstKey = key;
                firstValue = value;
                continue;
            }
            if (!equivalent(firstKey, key)) {
                mismatch(issues, entry.key(), firstKey, key);
            }
            if (!equivalent(firstValue, value)) {
                mismatch(issues, entry.value(), firstValue, value);
            }
        }
    }

    /** An optional element ({@code [?x]}, {@code {?k: v}}) counts as its optional's content. */
    private static CelType typeOf(CelAbstractSyntaxTree ast, CelExpr e, boolean optional) {
        CelType type = ast.getType(e.id()).orElse(SimpleType.DYN);
        if (optional && !type.parameters().isEmpty()) {
            return type.parameters().get(0);
        }
        return type;
    }

    private static void mismatch(
            IssuesFactory issues, CelExpr at, CelType expected, CelType found) {
        issues.addError(
                at.id(),
                "expected type '"
                        + CelTypeFormat.of(expected)
                        + "' but found '"
                        + CelTypeFormat.of(found)
                        + "'");
    }

    /**
     * cel-go's {@code IsEquivalentType}: type parameters match whatever their names. Types nest no
     * deeper than the expression, which the parser bounds.
     */
    static boolean equivalent(CelType a, CelType b) {
        if (a.kind() != b.kind() || a.parameters().size() != b.parameters().size()) {
            return false;
        }
        if (a.kind() != CelKind.TYPE_PARAM && !a.name().equals(b.name())) {
            return false;
        }
        for (int i = 0; i < a.parameters().size(); i++) {
            if (!equivalent(a.parameters().get(i), b.parameters().get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean inExemptCall(CelNavigableExpr node) {
        Optional<CelNavigableExpr> parent = node.parent();
        while (parent.isPresent()) {
            CelNavigableExpr p = parent.get();
            if (p.getKind() == Kind.CALL && EXEMPT.contains(p.expr().call().function())) {
                return true;
            }
            parent = p.parent();
        }
        return false;
    }
}
