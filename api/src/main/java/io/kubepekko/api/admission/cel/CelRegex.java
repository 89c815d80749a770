package io.kubepekko.api.admission.cel;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's CEL regex library ({@code k8s.io/apiserver/pkg/cel/library/regex.go}): {@code s.find(re)},
 * the first match or "", and {@code s.findAll(re)} / {@code s.findAll(re, n)}, every match (at most
 * n; a negative n means all). RE2 syntax, as CEL's own {@code matches}.
 */
final class CelRegex {

    private CelRegex() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "find",
                        CelOverloadDecl.newMemberOverload(
                                "string_find_string",
                                SimpleType.STRING,
                                SimpleType.STRING,
                                SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "findAll",
                        CelOverloadDecl.newMemberOverload(
                                "string_find_all_string",
                                ListType.create(SimpleType.STRING),
                                SimpleType.STRING,
                                SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload(
                                "string_find_all_string_int",
                                ListType.create(SimpleType.STRING),
                                SimpleType.STRING,
                                SimpleType.STRING,
                                SimpleType.INT)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from(
                        "string_find_string",
                        String.class,
                        String.class,
                        (s, re) -> {
                            Matcher m = pattern(re).matcher(s);
                            return m.find() ? m.group() : "";
                        }),
                CelFunctionBinding.from(
                        "string_find_all_string",
                        String.class,
                        String.class,
                        (s, re) -> findAll(s, re, -1)),
                CelFunctionBinding.from(
                        "string_find_all_string_int",
                        List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    }

    private static List<String> findAll(String s, String re, long limit)
            throws CelEvaluationException {
        List<String> out = new ArrayList<>();
        Matcher m = pattern(re).matcher(s);
        while ((limit < 0 || out.size() < limit) && m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static Pattern pattern(String re) throws CelEvaluationException {
        try {
            return Pattern.compile(re);
        } catch (PatternSyntaxException e) {
            // re2j words it as Go does: "error parsing regexp: ...".
            throw new CelEvaluationException(e.getMessage(), e);
        }
    }
}
