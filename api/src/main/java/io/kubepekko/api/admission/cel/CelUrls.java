package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * kube's CEL URL library ({@code k8s.io/apiserver/pkg/cel/library/urls.go}, in every base
 * environment): {@code url(s)} (an absolute URI or absolute path, as Go's {@code
 * url.ParseRequestURI} accepts it, then read by {@code url.Parse}), {@code isURL(s)}, and a URL's
 * {@code getScheme()}, {@code getHost()}, {@code getHostname()}, {@code getPort()}, {@code
 * getEscapedPath()} and {@code getQuery()}. Parsing is {@link GoUrl}'s.
 */
final class CelUrls {

    static final OpaqueType URL = OpaqueType.create("kubernetes.URL");

    private CelUrls() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "url",
                        CelOverloadDecl.newGlobalOverload("string_to_url", URL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isURL",
                        CelOverloadDecl.newGlobalOverload(
                                "is_url_string", SimpleType.BOOL, SimpleType.STRING)),
                getter("getScheme", "url_get_scheme", SimpleType.STRING),
                getter("getHost", "url_get_host", SimpleType.STRING),
                getter("getHostname", "url_get_hostname", SimpleType.STRING),
                getter("getPort", "url_get_port", SimpleType.STRING),
                getter("getEscapedPath", "url_get_escaped_path", SimpleType.STRING),
                getter(
                        "getQuery",
                        "url_get_query",
                        MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING))));
    }

    private static CelFunctionDecl getter(String name, String overload, CelType result) {
        return CelFunctionDecl.newFunctionDeclaration(
                name, CelOverloadDecl.newMemberOverload(overload, result, URL));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_url", String.class, CelUrls::url),
                CelFunctionBinding.from("is_url_string", String.class, CelUrls::isUrl),
                CelFunctionBinding.from("url_get_scheme", GoUrl.class, GoUrl::scheme),
                CelFunctionBinding.from("url_get_host", GoUrl.class, GoUrl::hostAndPort),
                CelFunctionBinding.from("url_get_hostname", GoUrl.class, GoUrl::hostname),
                CelFunctionBinding.from("url_get_port", GoUrl.class, GoUrl::port),
                CelFunctionBinding.from("url_get_escaped_path", GoUrl.class, GoUrl::escapedPath),
                CelFunctionBinding.from("url_get_query", GoUrl.class, GoUrl::query));
    }

    private static GoUrl url(String s) throws CelEvaluationException {
        try {
            // kube checks with ParseRequestURI, then keeps what Parse reads (it cuts a fragment).
            GoUrl.parseRequestUri(s);
            return GoUrl.parse(s);
        } catch (GoUrl.ParseException e) {
            throw new CelEvaluationException(
                    "URL parse error during conversion from string: " + e.getMessage());
        }
    }

    private static boolean isUrl(String s) {
        try {
            GoUrl.parseRequestUri(s);
            return true;
        } catch (GoUrl.ParseException e) {
            return false;
        }
    }
}
