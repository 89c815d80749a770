package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import io.kubepekko.api.validation.NameValidation;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * kube's CEL format library ({@code k8s.io/apiserver/pkg/cel/library/format.go}, in the base
 * environment since 1.31): {@code format.named(name)} (optional), {@code format.<name>()} for each
 * named format, and {@code <format>.validate(s)}, none when {@code s} is valid, else the list of
 * what is wrong. The Kubernetes name formats use this server's {@link NameValidation} (kube's
 * apimachinery messages); {@code uri} Go's {@code ParseRequestURI} ({@link GoUrl}); {@code uuid},
 * {@code byte}, {@code date} and {@code datetime} stand in for kube-openapi's strfmt checks.
 */
final class CelFormat {

    static final OpaqueType FORMAT = OpaqueType.create("kubernetes.NamedFormat");

    /** A named format: what {@code validate} says of a string. */
    record NamedFormat(String name, Function<String, List<String>> check) {}

    private static final Pattern UUID =
            Pattern.compile(
                    "(?i)(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)|(^[0-9a-f]{32}$)");
    private static final Pattern DATE = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}$");
    private static final Pattern DATE_TIME =
            Pattern.compile(
                    "^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$");

    /** kube's {@code ConstantFormats}, by the name {@code format.named} takes. */
    static final Map<String, NamedFormat> FORMATS = formats();

    private CelFormat() {}

    private static Map<String, NamedFormat> formats() {
        Map<String, NamedFormat> f = new LinkedHashMap<>();
        f.put("dns1123Label", new NamedFormat("DNS1123Label", NameValidation::dns1123Label));
        f.put(
                "dns1123Subdomain",
                new NamedFormat("DNS1123Subdomain", NameValidation::dns1123Subdomain));
        f.put("dns1035Label", new NamedFormat("DNS1035Label", NameValidation::dns1035Label));
        f.put("qualifiedName", new NamedFormat("QualifiedName", NameValidation::qualifiedName));
        f.put(
                "dns1123LabelPrefix",
                new NamedFormat(
                        "DNS1123LabelPrefix", s -> NameValidation.dns1123Label(maskDash(s))));
        f.put(
                "dns1123SubdomainPrefix",
                new NamedFormat(
                        "DNS1123SubdomainPrefix",
                        s -> NameValidation.dns1123Subdomain(maskDash(s))));
        f.put(
                "dns1035LabelPrefix",
                new NamedFormat(
                        "DNS1035LabelPrefix", s -> NameValidation.dns1035Label(maskDash(s))));
        f.put("labelValue", new NamedFormat("LabelValue", NameValidation::labelValue));
        f.put("uri", new NamedFormat("URI", CelFormat::uri));
        f.put(
                "uuid",
                new NamedFormat(
                        "uuid",
                        s ->
                                UUID.matcher(s).find()
                                        ? List.of()
                                        : List.of("does not match the UUID format")));
        f.put(
                "byte",
                new NamedFormat("byte", s -> isBase64(s) ? List.of() : List.of("invalid base64")));
        f.put(
                "date",
                new NamedFormat("date", s -> isDate(s) ? List.of() : List.of("invalid date")));
        f.put(
                "datetime",
                new NamedFormat(
                        "datetime", s -> isDateTime(s) ? List.of() : List.of("invalid datetime")));
        return Map.copyOf(f);
    }

    static List<CelFunctionDecl> declarations() {
        List<CelFunctionDecl> decls = new ArrayList<>();
        decls.add(
                CelFunctionDecl.newFunctionDeclaration(
                        "validate",
                        CelOverloadDecl.newMemberOverload(
                                "format-validate",
                                OptionalType.create(ListType.create(SimpleType.STRING)),
                                FORMAT,
                                SimpleType.STRING)));
        decls.add(
                CelFunctionDecl.newFunctionDeclaration(
                        "format.named",
                        CelOverloadDecl.newGlobalOverload(
                                "format-named", OptionalType.create(FORMAT), SimpleType.STRING)));
        for (String name : FORMATS.keySet()) {
            decls.add(
                    CelFunctionDecl.newFunctionDeclaration(
                            "format." + name,
                            CelOverloadDecl.newGlobalOverload("format." + name, FORMAT)));
        }
        return decls;
    }

    static List<CelFunctionBinding> bindings() {
        List<CelFunctionBinding> bindings = new ArrayList<>();
        bindings.add(
                CelFunctionBinding.from(
                        "format-validate",
                        NamedFormat.class,
                        String.class,
                        (f, s) -> {
                            List<String> errors = f.check().apply(s);
                            return errors.isEmpty()
                                    ? Optional.empty()
                                    : Optional.of(List.copyOf(errors));
                        }));
        bindings.add(
                CelFunctionBinding.from(
                        "format-named", String.class, n -> Optional.ofNullable(FORMATS.get(n))));
        for (Map.Entry<String, NamedFormat> e : FORMATS.entrySet()) {
            bindings.add(
                    CelFunctionBinding.from(
                            "format." + e.getKey(), List.of(), args -> e.getValue()));
        }
        return bindings;
    }

    /** apimachinery's {@code maskTrailingDash}: a prefix may end in '-'. */
    private static String maskDash(String s) {
        return s.length() > 1 && s.endsWith("-") ? s.substring(0, s.length() - 2) + "a" : s;
    }

    private static List<String> uri(String s) {
        try {
            GoUrl.parseRequestUri(s);
            return List.of();
        } catch (GoUrl.ParseException e) {
            return List.of(e.getMessage());
        }
    }

    /** Go's {@code base64.StdEncoding}: padded, line breaks ignored. */
    private static boolean isBase64(String s) {
        String t = s.replace("\r", "").replace("\n", "");
        if (t.length() % 4 != 0) {
            return false;
        }
        try {
            Base64.getDecoder().decode(t);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isDate(String s) {
        if (!DATE.matcher(s).matches()) {
            return false;
        }
        try {
            LocalDate.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isDateTime(String s) {
        if (!DATE_TIME.matcher(s).matches()) {
            return false;
        }
        try {
            OffsetDateTime.parse(s.toUpperCase(Locale.ROOT));
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
