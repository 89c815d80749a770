package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * kube's CEL semver library at version 1 ({@code k8s.io/apiserver/pkg/cel/library/semverlib.go}, in
 * the base environment since 1.33): {@code semver(s)} and {@code semver(s, normalize)}, {@code
 * isSemver(s)} and {@code isSemver(s, normalize)}, a version's {@code major()}, {@code minor()},
 * {@code patch()}, {@code isGreaterThan}, {@code isLessThan} and {@code compareTo}. Parsing is
 * {@link SemVersion}'s.
 */
final class CelSemver {

    static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

    private CelSemver() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "semver",
                        CelOverloadDecl.newGlobalOverload(
                                "string_to_semver", SEMVER, SimpleType.STRING),
                        CelOverloadDecl.newGlobalOverload(
                                "string_bool_to_semver",
                                SEMVER,
                                SimpleType.STRING,
                                SimpleType.BOOL)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isSemver",
                        CelOverloadDecl.newGlobalOverload(
                                "is_semver_string", SimpleType.BOOL, SimpleType.STRING),
                        CelOverloadDecl.newGlobalOverload(
                                "is_semver_string_bool",
                                SimpleType.BOOL,
                                SimpleType.STRING,
                                SimpleType.BOOL)),
                binary("isGreaterThan", "semver_is_greater_than", SimpleType.BOOL),
                binary("isLessThan", "semver_is_less_than", SimpleType.BOOL),
                binary("compareTo", "semver_compare_to", SimpleType.INT),
                unary("major", "semver_major"),
                unary("minor", "semver_minor"),
                unary("patch", "semver_patch"));
    }

    private static CelFunctionDecl unary(String name, String overload) {
        return CelFunctionDecl.newFunctionDeclaration(
                name, CelOverloadDecl.newMemberOverload(overload, SimpleType.INT, SEMVER));
    }

    private static CelFunctionDecl binary(String name, String overload, CelType result) {
        return CelFunctionDecl.newFunctionDeclaration(
                name, CelOverloadDecl.newMemberOverload(overload, result, SEMVER, SEMVER));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_semver", String.class, s -> semver(s, false)),
                CelFunctionBinding.from(
                        "string_bool_to_semver", String.class, Boolean.class, CelSemver::semver),
                CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
                CelFunctionBinding.from(
                        "is_semver_string_bool", String.class, Boolean.class, CelSemver::isSemver),
                CelFunctionBinding.from(
                        "semver_is_greater_than",
                        SemVersion.class,
                        SemVersion.class,
                        (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from(
                        "semver_is_less_than",
                        SemVersion.class,
                        SemVersion.class,
                        (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from(
                        "semver_compare_to",
                        SemVersion.class,
                        SemVersion.class,
                        (a, b) -> (long) a.compareTo(b)),
                CelFunctionBinding.from("semver_major", SemVersion.class, SemVersion::major),
                CelFunctionBinding.from("semver_minor", SemVersion.class, SemVersion::minor),
                CelFunctionBinding.from("semver_patch", SemVersion.class, SemVersion::patch));
    }

    private static SemVersion semver(String s, boolean normalize) throws CelEvaluationException {
        try {
            return normalize ? SemVersion.parseNormalized(s) : SemVersion.parse(s);
        } catch (SemVersion.ParseException e) {
            throw new CelEvaluationException(e.getMessage());
        }
    }

    private static boolean isSemver(String s, boolean normalize) {
        try {
            semver(s, normalize);
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }
}
