package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.List;
import java.util.Locale;

/**
 * kube's CEL authorizer library ({@code k8s.io/apiserver/pkg/cel/library/authz.go}): the {@code
 * authorizer} variable asks this server's authorizers whether the request's user may do something
 * ({@code authorizer.group('apps').resource('deployments').namespace('ns').check('create')
 * .allowed()}, {@code authorizer.path('/healthz').check('get')}, {@code
 * authorizer.serviceAccount(ns, name)} for a service account instead of the user), and {@code
 * authorizer.requestResource} starts from the request's own resource. Field and label selectors of
 * resource checks are not offered.
 */
final class CelAuthorizer {

    static final OpaqueType AUTHORIZER = OpaqueType.create("kubernetes.authorization.Authorizer");
    static final OpaqueType PATH_CHECK = OpaqueType.create("kubernetes.authorization.PathCheck");
    static final OpaqueType GROUP_CHECK = OpaqueType.create("kubernetes.authorization.GroupCheck");
    static final OpaqueType RESOURCE_CHECK =
            OpaqueType.create("kubernetes.authorization.ResourceCheck");
    static final OpaqueType DECISION = OpaqueType.create("kubernetes.authorization.Decision");

    /** The {@code authorizer} value: whose checks, asked of which authorizers. */
    record Authz(Authorizer authorizer, UserInfo user) {}

    record PathCheck(Authz authz, String path) {}

    record GroupCheck(Authz authz, String group) {}

    record ResourceCheck(
            Authz authz,
            String group,
            String version,
            String resource,
            String subresource,
            String namespace,
            String name) {

        ResourceCheck with(String field, String value) {
            return switch (field) {
                case "subresource" ->
                        new ResourceCheck(authz, group, version, resource, value, namespace, name);
                case "namespace" ->
                        new ResourceCheck(
                                authz, group, version, resource, subresource, value, name);
                default ->
                        new ResourceCheck(
                                authz, group, version, resource, subresource, namespace, value);
            };
        }
    }

    private CelAuthorizer() {}

    static Authz authorizer(Authorizer authorizer, UserInfo user) {
        return new Authz(authorizer, user == null ? UserInfo.of("", List.of()) : user);
    }

    /** kube's {@code NewResourceAuthorizerVal}: a check of the request's own resource. */
    static ResourceCheck requestResource(Authz authz, WebhookRequest request) {
        WebhookRequest.Gvr gvr = request.resource();
        return new ResourceCheck(
                authz,
                gvr == null ? "" : gvr.group(),
                gvr == null ? "" : gvr.version(),
                gvr == null ? "" : gvr.resource(),
                request.subresource(),
                request.namespace(),
                request.name());
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                member("path", AUTHORIZER, PATH_CHECK, SimpleType.STRING),
                member("group", AUTHORIZER, GROUP_CHECK, SimpleType.STRING),
                member(
                        "serviceAccount",
                        AUTHORIZER,
                        AUTHORIZER,
                        SimpleType.STRING,
                        SimpleType.STRING),
                member("resource", GROUP_CHECK, RESOURCE_CHECK, SimpleType.STRING),
                member("subresource", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
                member("namespace", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
                member("name", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
                CelFunctionDecl.newFunctionDeclaration(
                        "check",
                        CelOverloadDecl.newMemberOverload(
                                "pathcheck_check", DECISION, PATH_CHECK, SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload(
                                "resourcecheck_check",
                                DECISION,
                                RESOURCE_CHECK,
                                SimpleType.STRING)),
                member("allowed", DECISION, SimpleType.BOOL),
                member("reason", DECISION, SimpleType.STRING),
                member("errored", DECISION, SimpleType.BOOL),
                member("error", DECISION, SimpleType.STRING));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from(
                        "authorizer_path",
                        Authz.class,
                        String.class,
                        (CelFunctionOverload.Binary<Authz, String>) PathCheck::new),
                CelFunctionBinding.from(
                        "authorizer_group",
                        Authz.class,
                        String.class,
                        (CelFunctionOverload.Binary<Authz, String>) GroupCheck::new),
                CelFunctionBinding.from(
                        "authorizer_serviceAccount",
                        List.of(Authz.class, String.class, String.class),
                        args ->
                                serviceAccount(
                                        (Authz) args[0], (String) args[1], (String) args[2])),
                CelFunctionBinding.from(
                        "groupcheck_resource",
                        GroupCheck.class,
                        String.class,
                        (g, r) -> new ResourceCheck(g.authz(), g.group(), "*", r, "", "", "")),
                CelFunctionBinding.from(
                        "resourcecheck_subresource",
                        ResourceCheck.class,
                        String.class,
                        (c, v) -> c.with("subresource", v)),
                CelFunctionBinding.from(
                        "resourcecheck_namespace",
                        ResourceCheck.class,
                        String.class,
                        (c, v) -> c.with("namespace", v)),
                CelFunctionBinding.from(
                        "resourcecheck_name",
                        ResourceCheck.class,
                        String.class,
                        (c, v) -> c.with("name", v)),
                CelFunctionBinding.from(
                        "pathcheck_check",
                        PathCheck.class,
                        String.class,
                        (p, verb) ->
                                p.authz()
                                        .authorizer()
                                        .authorize(
                                                new AuthorizationAttributes(
                                                        p.authz().user(),
                                                        verb,
                                                        false,
                                                        "",
                                                        "",
                                                        "",
                                                        "",
                                                        "",
                                                        "",
                                                        p.path()))),
                CelFunctionBinding.from(
                        "resourcecheck_check",
                        ResourceCheck.class,
                        String.class,
                        (c, verb) ->
                                c.authz()
                                        .authorizer()
                                        .authorize(
                                                AuthorizationAttributes.resource(
                                                        c.authz().user(),
                                                        verb,
                                                        c.namespace(),
                                                        c.group(),
                                                        c.version(),
                                                        c.resource(),
                                                        c.subresource(),
                                                        c.name()))),
                CelFunctionBinding.from("decision_allowed", Decision.class, Decision::allowed),
                CelFunctionBinding.from("decision_reason", Decision.class, Decision::reason),
                // This server's authorizers decide without failing: never an evaluation error.
                CelFunctionBinding.from("decision_errored", Decision.class, d -> false),
                CelFunctionBinding.from("decision_error", Decision.class, d -> ""));
    }

    /** kube's service-account user: its name and the two groups every service account is in. */
    private static Authz serviceAccount(Authz authz, String namespace, String name) {
        return new Authz(
                authz.authorizer(),
                UserInfo.of(
                        "system:serviceaccount:" + namespace + ":" + name,
                        List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace)));
    }

    private static CelFunctionDecl member(
            String function, CelType receiver, CelType result, CelType... args) {
        CelType[] all = new CelType[args.length + 1];
        all[0] = receiver;
        System.arraycopy(args, 0, all, 1, args.length);
        String overload = overloadPrefix(receiver) + "_" + function;
        return CelFunctionDecl.newFunctionDeclaration(
                function, CelOverloadDecl.newMemberOverload(overload, result, all));
    }

    private static String overloadPrefix(CelType receiver) {
        String name = receiver.name();
        return name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    }
}
