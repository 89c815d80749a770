package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * cel-go's {@code <string>.format(<list>)} of its strings extension, which cel-java's strings
 * extension lacks and kube's environment has (strings version 2, en-US): {@code "%s is
 * %d".format(["a", 1])}. Clauses and printing are {@link FormatValues}'; a literal call is also
 * checked when compiled ({@link FormatCallCheck}).
 */
final class CelStringFormat {

    /** cel-go's overload id, which its compile-time check looks for. */
    static final String OVERLOAD = "string_format";

    private CelStringFormat() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "format",
                        CelOverloadDecl.newMemberOverload(
                                OVERLOAD,
                                SimpleType.STRING,
                                SimpleType.STRING,
                                ListType.create(SimpleType.DYN))));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from(
                        OVERLOAD, String.class, List.class, CelStringFormat::format));
    }

    private static String format(String format, List<?> args) throws CelEvaluationException {
        try {
            return FormatValues.format(format, args);
        } catch (FormatString.Failure f) {
            throw new CelEvaluationException(f.getMessage());
        }
    }
}
