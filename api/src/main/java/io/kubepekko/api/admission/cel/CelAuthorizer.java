package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.validation.NameValidation;
import java.util.List;
import java.util.Locale;

/**
 * kube's CEL authorizer library ({@code k8s.io/apiserver/pkg/cel/library/authz.go}): the {@code
 * authorizer} variable asks this server's authorizers whether the request's user may do something
 * ({@code authorizer.group('apps').resource('deployments').namespace('ns').check('create')
 * .allowed()}, {@code authorizer.path('/healthz').check('get')}, {@code
 * authorizer.serviceAccount(ns, name)} for a service account instead of the user), and {@code
 * authorizer.requestResource} starts from the request's own resource; kube's selectors library adds
 * {@code fieldSelector(s)} and {@code labelSelector(s)} to resource checks, put in the
 * authorization attributes (the node authorizer reads the field selector; RBAC ignores both, as
 * kube's).
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

    /**
     * A resource check being built: kube's {@code resourceCheckVal}, its selectors kept as written
     * and parsed when checked.
     */
    record ResourceCheck(
            Authz authz,
            String group,
            String version,
            String resource,
            String subresource,
            String namespace,
            String name,
            String fieldSelector,
            String labelSelector) {

        ResourceCheck(
                Authz authz,
                String group,
                String version,
                String resource,
                String subresource,
                String namespace,
                String name) {
            this(authz, group, version, resource, subresource, namespace, name, "", "");
        }

        ResourceCheck withSubresource(String value) {
            return new ResourceCheck(
                    authz,
                    group,
                    version,
                    resource,
                    value,
                    namespace,
                    name,
                    fieldSelector,
                    labelSelector);
        }

        ResourceCheck withNamespace(String value) {
            return new ResourceCheck(
                    authz,
                    group,
                    version,
                    resource,
                    subresource,
                    value,
                    name,
                    fieldSelector,
                    labelSelector);
        }

        ResourceCheck withName(String value) {
            return new ResourceCheck(
                    authz,
                    group,
                    version,
                    resource,
                    subresource,
                    namespace,
                    value,
                    fieldSelector,
                    labelSelector);
        }

        ResourceCheck withFieldSelector(String value) {
            return new ResourceCheck(
                    authz,
                    group,
                    version,
                    resource,
                    subresource,
                    namespace,
                    name,
                    value,
                    labelSelector);
        }

        ResourceCheck withLabelSelector(String value) {
            return new ResourceCheck(
                    authz,
                    group,
                    version,
                    resource,
                    subresource,
                    namespace,
                    name,
                    fieldSelector,
                    value);
        }

        /**
         * kube's {@code resourceCheckVal.Authorize} attributes: version {@code *} (set by {@code
         * resource}), the selectors parsed (one that does not parse adds no requirement, as kube's,
         * which keeps the parse error beside them for authorizers that read it).
         */
        AuthorizationAttributes attributes(String verb) {
            return AuthorizationAttributes.resource(
                            authz.user(),
                            verb,
                            namespace,
                            group,
                            version,
                            resource,
                            subresource,
                            name)
                    .withFieldSelector(CelSelectors.fields(fieldSelector))
                    .withLabelSelector(CelSelectors.labels(labelSelector));
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
                // kube's AuthzSelectors library (its AuthorizeWithSelectors feature, on by default
                // since 1.32).
                member("fieldSelector", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
                member("labelSelector", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
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
                        (CelFunctionOverload.Binary<Authz, String>)
                                (a, path) -> new PathCheck(a, notBlank(path, "path"))),
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
                        (g, r) ->
                                new ResourceCheck(
                                        g.authz(),
                                        g.group(),
                                        "*",
                                        notBlank(r, "resource"),
                                        "",
                                        "",
                                        "")),
                CelFunctionBinding.from(
                        "resourcecheck_subresource",
                        ResourceCheck.class,
                        String.class,
                        ResourceCheck::withSubresource),
                CelFunctionBinding.from(
                        "resourcecheck_namespace",
                        ResourceCheck.class,
                        String.class,
                        ResourceCheck::withNamespace),
                CelFunctionBinding.from(
                        "resourcecheck_name",
                        ResourceCheck.class,
                        String.class,
                        ResourceCheck::withName),
                CelFunctionBinding.from(
                        "resourcecheck_fieldSelector",
                        ResourceCheck.class,
                        String.class,
                        ResourceCheck::withFieldSelector),
                CelFunctionBinding.from(
                        "resourcecheck_labelSelector",
                        ResourceCheck.class,
                        String.class,
                        ResourceCheck::withLabelSelector),
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
                        (c, verb) -> c.authz().authorizer().authorize(c.attributes(verb))),
                CelFunctionBinding.from("decision_allowed", Decision.class, Decision::allowed),
                CelFunctionBinding.from("decision_reason", Decision.class, Decision::reason),
                // This server's authorizers decide without failing: never an evaluation error.
                CelFunctionBinding.from("decision_errored", Decision.class, d -> false),
                CelFunctionBinding.from("decision_error", Decision.class, d -> ""));
    }

    /** kube's service-account user: its name and the two groups every service account is in. */
    private static Authz serviceAccount(Authz authz, String namespace, String name)
            throws CelEvaluationException {
        // kube's ValidateServiceAccountName and ValidateNamespaceName, in that order.
        if (!NameValidation.dns1123Subdomain(name).isEmpty()) {
            throw new CelEvaluationException("Invalid service account name");
        }
        if (!NameValidation.dns1123Label(namespace).isEmpty()) {
            throw new CelEvaluationException("Invalid service account namespace");
        }
        return new Authz(
                authz.authorizer(),
                UserInfo.of(
                        "system:serviceaccount:" + namespace + ":" + name,
                        List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace)));
    }

    /** kube's {@code strings.TrimSpace(x) == ""} refusal: {@code path must not be empty}. */
    private static String notBlank(String value, String what) throws CelEvaluationException {
        if (value.strip().isEmpty()) {
            throw new CelEvaluationException(what + " must not be empty");
        }
        return value;
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
