package io.kubepekko.api.admission.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * kube's CEL lists library ({@code k8s.io/apiserver/pkg/cel/library/lists.go}): {@code isSorted},
 * {@code min}, {@code max}, {@code sum}, {@code indexOf} and {@code lastIndexOf}. kube declares the
 * first four per element type (int, uint, double, bool, string, and durations, timestamps and
 * bytes); cel-java's dispatcher finds such overloads ambiguous on a dyn list (any list read from an
 * object), so each is declared once over {@code list(A)} and a list of elements that do not compare
 * or add fails when evaluated, where kube refuses it when compiled. Durations, timestamps and bytes
 * are not compared or summed.
 */
final class CelLists {

    private CelLists() {}

    static List<CelFunctionDecl> declarations() {
        TypeParamType a = TypeParamType.create("A");
        ListType listOfA = ListType.create(a);
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "isSorted",
                        CelOverloadDecl.newMemberOverload(
                                "list_a_is_sorted_bool", SimpleType.BOOL, listOfA)),
                CelFunctionDecl.newFunctionDeclaration(
                        "min", CelOverloadDecl.newMemberOverload("list_a_min_a", a, listOfA)),
                CelFunctionDecl.newFunctionDeclaration(
                        "max", CelOverloadDecl.newMemberOverload("list_a_max_a", a, listOfA)),
                CelFunctionDecl.newFunctionDeclaration(
                        "sum", CelOverloadDecl.newMemberOverload("list_a_sum_a", a, listOfA)),
                CelFunctionDecl.newFunctionDeclaration(
                        "indexOf",
                        CelOverloadDecl.newMemberOverload(
                                "list_a_index_of_int", SimpleType.INT, listOfA, a)),
                CelFunctionDecl.newFunctionDeclaration(
                        "lastIndexOf",
                        CelOverloadDecl.newMemberOverload(
                                "list_a_last_index_of_int", SimpleType.INT, listOfA, a)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_a_is_sorted_bool", List.class, CelLists::isSorted),
                CelFunctionBinding.from("list_a_min_a", List.class, l -> pick(l, "min", 1)),
                CelFunctionBinding.from("list_a_max_a", List.class, l -> pick(l, "max", -1)),
                CelFunctionBinding.from("list_a_sum_a", List.class, CelLists::sum),
                CelFunctionBinding.from(
                        "list_a_index_of_int",
                        List.class,
                        Object.class,
                        (l, item) -> (long) l.indexOf(item)),
                CelFunctionBinding.from(
                        "list_a_last_index_of_int",
                        List.class,
                        Object.class,
                        (l, item) -> (long) l.lastIndexOf(item)));
    }

    private static boolean isSorted(List<?> list) throws CelEvaluationException {
        for (int i = 1; i < list.size(); i++) {
            if (compare(list.get(i - 1), list.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** kube's cmp: the element the comparison with the current pick prefers. */
    private static Object pick(List<?> list, String op, int prefer) throws CelEvaluationException {
        if (list.isEmpty()) {
            throw new CelEvaluationException(op + " called on empty list");
        }
        Object result = list.get(0);
        for (Object next : list.subList(1, list.size())) {
            if (Integer.signum(compare(result, next)) == prefer) {
                result = next;
            }
        }
        return result;
    }

    private static int compare(Object a, Object b) throws CelEvaluationException {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x, y);
        }
        if (a instanceof UnsignedLong x && b instanceof UnsignedLong y) {
            return x.compareTo(y);
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        throw new CelEvaluationException("no such overload");
    }

    /**
     * kube's sum: the zero of the list's type for an empty list (int here: its type is unknown).
     */
    private static Object sum(List<?> list) throws CelEvaluationException {
        Object acc = 0L;
        for (int i = 0; i < list.size(); i++) {
            Object next = list.get(i);
            if (i == 0 && !(next instanceof Long)) {
                acc = next instanceof Double ? (Object) 0.0 : UnsignedLong.ZERO;
            }
            if (acc instanceof Long l && next instanceof Long n) {
                try {
                    acc = Math.addExact(l, n);
                } catch (ArithmeticException e) {
                    // cel-go's words for an int overflow.
                    throw new CelEvaluationException("integer overflow", e);
                }
            } else if (acc instanceof UnsignedLong u && next instanceof UnsignedLong n) {
                acc = u.plus(n);
            } else if (acc instanceof Double d && next instanceof Double n) {
                acc = d + n;
            } else {
                throw new CelEvaluationException("no such overload");
            }
        }
        return acc;
    }
}
