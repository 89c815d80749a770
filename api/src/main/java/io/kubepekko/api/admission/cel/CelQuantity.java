package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.kubepekko.api.meta.Quantity;
import java.util.List;

/**
 * kube's CEL quantity library ({@code k8s.io/apiserver/pkg/cel/library/quantity.go}, in the base
 * environment since 1.28) on this server's own {@link Quantity}: {@code quantity(s)}, {@code
 * isQuantity(s)}, {@code sign(q)} (declared global, as kube declares it), {@code q.isInteger()},
 * {@code asInteger()}, {@code asApproximateFloat()}, {@code add}/{@code sub} of a quantity or an
 * int, {@code isGreaterThan}, {@code isLessThan} and {@code compareTo}. Equal values are equal
 * quantities however written ({@code quantity('200M') == quantity('0.2G')}). The {@code mul},
 * {@code div} and {@code divInt} of kube's newer sources are not offered.
 */
final class CelQuantity {

    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");

    private CelQuantity() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "quantity",
                        CelOverloadDecl.newGlobalOverload(
                                "string_to_quantity", QUANTITY, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isQuantity",
                        CelOverloadDecl.newGlobalOverload(
                                "is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "sign",
                        CelOverloadDecl.newGlobalOverload(
                                "quantity_sign", SimpleType.INT, QUANTITY)),
                binary("isGreaterThan", "quantity_is_greater_than", SimpleType.BOOL),
                binary("isLessThan", "quantity_is_less_than", SimpleType.BOOL),
                binary("compareTo", "quantity_compare_to", SimpleType.INT),
                unary("asApproximateFloat", "quantity_get_float", SimpleType.DOUBLE),
                unary("asInteger", "quantity_get_int", SimpleType.INT),
                unary("isInteger", "quantity_is_integer", SimpleType.BOOL),
                CelFunctionDecl.newFunctionDeclaration(
                        "add",
                        CelOverloadDecl.newMemberOverload(
                                "quantity_add", QUANTITY, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload(
                                "quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
                CelFunctionDecl.newFunctionDeclaration(
                        "sub",
                        CelOverloadDecl.newMemberOverload(
                                "quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload(
                                "quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)));
    }

    private static CelFunctionDecl unary(String name, String overload, CelType result) {
        return CelFunctionDecl.newFunctionDeclaration(
                name, CelOverloadDecl.newMemberOverload(overload, result, QUANTITY));
    }

    private static CelFunctionDecl binary(String name, String overload, CelType result) {
        return CelFunctionDecl.newFunctionDeclaration(
                name, CelOverloadDecl.newMemberOverload(overload, result, QUANTITY, QUANTITY));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, CelQuantity::parse),
                CelFunctionBinding.from(
                        "is_quantity_string", String.class, s -> Quantity.syntaxError(s).isEmpty()),
                CelFunctionBinding.from("quantity_sign", Quantity.class, q -> (long) q.signum()),
                CelFunctionBinding.from(
                        "quantity_is_greater_than",
                        Quantity.class,
                        Quantity.class,
                        (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from(
                        "quantity_is_less_than",
                        Quantity.class,
                        Quantity.class,
                        (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from(
                        "quantity_compare_to",
                        Quantity.class,
                        Quantity.class,
                        (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from(
                        "quantity_get_float", Quantity.class, q -> q.amount().doubleValue()),
                CelFunctionBinding.from("quantity_get_int", Quantity.class, CelQuantity::asInt),
                CelFunctionBinding.from("quantity_is_integer", Quantity.class, Quantity::isInt64),
                CelFunctionBinding.from(
                        "quantity_add", Quantity.class, Quantity.class, Quantity::plus),
                CelFunctionBinding.from(
                        "quantity_add_int",
                        Quantity.class,
                        Long.class,
                        (q, n) -> q.plus(Quantity.of(n))),
                CelFunctionBinding.from(
                        "quantity_sub", Quantity.class, Quantity.class, Quantity::minus),
                CelFunctionBinding.from(
                        "quantity_sub_int",
                        Quantity.class,
                        Long.class,
                        (q, n) -> q.minus(Quantity.of(n))));
    }

    private static Quantity parse(String s) throws CelEvaluationException {
        // resource.ParseQuantity's own words, unwrapped, as kube returns them.
        String error = Quantity.syntaxError(s).orElse(null);
        if (error != null) {
            throw new CelEvaluationException(error);
        }
        return Quantity.parse(s).orElseThrow();
    }

    private static long asInt(Quantity q) throws CelEvaluationException {
        if (!q.isInt64()) {
            throw new CelEvaluationException("cannot convert value to integer");
        }
        return q.amount().longValueExact();
    }
}
