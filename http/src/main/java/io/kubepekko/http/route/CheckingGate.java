package io.kubepekko.http.route;

import io.kubepekko.api.Verb;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.AuthorizationHeader;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.Impersonation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.auth.authorizer.ForbiddenMessage;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Reason;
import io.kubepekko.http.audit.AuditHandle;
import io.kubepekko.http.audit.Auditor;
import io.kubepekko.http.audit.SourceIps;
import io.kubepekko.http.security.ClientCertificates;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure port's gate, in kube-apiserver's filter order: authentication (client certificate,
 * bearer tokens, anonymous), impersonation, then authorization with kube's request attributes. A
 * credential that does not authenticate is kube's bare 401; a request no authorizer allows is 403
 * with kube's message. Why a credential failed goes to the debug log only, never to the client.
 */
public final class CheckingGate implements Gate {
    private static final Logger log = LoggerFactory.getLogger(CheckingGate.class);

    private static final ApiStatus UNAUTHORIZED =
            new ApiStatus(401, Reason.UNAUTHORIZED, "Unauthorized", null);

    private final Authentication.Authenticator authenticator;
    private final Authorizer authorizer;
    private final Auditor auditor;
    private final WriteAdmission admission;

    /**
     * @param authenticator the server's authenticators as one union (anonymous included when on)
     * @param authorizer the server's authorizers as one union, in {@code --authorization-mode}
     *     order
     * @param auditor where the requests are audited (kube's audit filter sits after authentication)
     * @param admission the server's admission plugins (NodeRestriction, RBAC escalation
     *     prevention), which the creates that store nothing ask here (see {@link Gate#admission})
     */
    public CheckingGate(
            Authentication.Authenticator authenticator,
            Authorizer authorizer,
            Auditor auditor,
            WriteAdmission admission) {
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.auditor = auditor;
        this.admission = admission;
    }

    @Override
    public WriteAdmission admission() {
        return admission;
    }

    @Override
    public Passage pass(HttpRequest request, Optional<RequestInfo> info, String path) {
        GateHeaders headers = GateHeaders.of(request);
        AuthorizationHeader.Parsed header = AuthorizationHeader.parse(headers.authorization());
        Credentials credentials =
                new Credentials(ClientCertificates.of(request), header.bearerToken(), false);
        Authentication authentication = authenticator.authenticate(credentials);
        if (!(authentication instanceof Authentication.Authenticated authenticated)) {
            if (authentication instanceof Authentication.Rejected rejected) {
                log.debug("Unable to authenticate the request: {}", rejected.reason());
            }
            AuditHandle failed =
                    auditor.authenticationFailed(
                            attributes(UserInfo.anonymous(), info, request, path),
                            uri(request),
                            sourceIps(request, headers),
                            headers.userAgent(),
                            headers.auditId(),
                            credentials,
                            UNAUTHORIZED.code());
            return new Passage.Stopped(UNAUTHORIZED, failed);
        }
        Impersonation.Outcome acting =
                Impersonation.decide(
                        authenticated.user(),
                        Impersonation.read(headers.impersonation()),
                        authorizer);
        AuthorizationAttributes asAuthenticated =
                attributes(authenticated.user(), info, request, path);
        AuditHandle audit =
                auditor.begin(
                        asAuthenticated,
                        () -> uri(request),
                        () -> sourceIps(request, headers),
                        headers.userAgent(),
                        headers.auditId(),
                        LongRunningRequests.check(info, path));
        if (acting instanceof Impersonation.Outcome.Refused refused) {
            return new Passage.Stopped(refused.status(), audit);
        }
        UserInfo user = ((Impersonation.Outcome.ActAs) acting).user();
        AuthorizationAttributes attributes = asAuthenticated;
        if (user != authenticated.user()) {
            audit.impersonating(user);
            attributes = attributes(user, info, request, path);
        }
        Decision decision = authorizer.authorize(attributes);
        audit.authorized(decision);
        if (!decision.allowed()) {
            return new Passage.Stopped(
                    ForbiddenMessage.status(attributes, decision.reason()), audit);
        }
        return new Passage.Through(user, header.warning().stream().toList(), audit);
    }

    /** The path and query as sent. */
    private static String uri(HttpRequest request) {
        return request.getUri().getPathString()
                + request.getUri().rawQueryString().map(q -> "?" + q).orElse("");
    }

    /** kube's source IPs: X-Forwarded-For, X-Real-Ip, then the connection's peer. */
    private static List<String> sourceIps(HttpRequest request, GateHeaders headers) {
        return SourceIps.of(
                headers.forwardedFor(),
                headers.realIp(),
                request.getAttribute(AttributeKeys.remoteAddress)
                        .map(r -> r.getAddress().orElse(null))
                        .orElse(null));
    }

    /**
     * kube's request attributes: a resource request's verb, group, version, resource, subresource,
     * namespace and name; a non-resource request's lower-cased method and path. Two of kube's
     * request-info rules: a namespace object's own namespace is its name, and a list or watch
     * selecting one name by {@code metadata.name} is authorized for that name.
     */
    static AuthorizationAttributes attributes(
            UserInfo user, Optional<RequestInfo> info, HttpRequest request, String path) {
        if (info.isEmpty()) {
            return AuthorizationAttributes.nonResource(
                    user, request.method().value().toLowerCase(Locale.ROOT), path);
        }
        RequestInfo r = info.get();
        String name = r.name();
        boolean collection =
                r.verb() == Verb.LIST
                        || r.verb() == Verb.WATCH
                        || r.verb() == Verb.DELETECOLLECTION;
        FieldSelector selector = collection ? fieldSelector(request) : FieldSelector.everything();
        if (name == null && (r.verb() == Verb.LIST || r.verb() == Verb.WATCH)) {
            name = selector.exactName().filter(CheckingGate::pathSegment).orElse(null);
        }
        String namespace = r.namespace();
        if (namespace == null && r.group().isEmpty() && r.resource().equals("namespaces")) {
            namespace = r.name();
        }
        return AuthorizationAttributes.resource(
                        user,
                        r.verb(),
                        namespace,
                        r.group(),
                        r.version(),
                        r.resource(),
                        r.subresource(),
                        name)
                .withFieldSelector(selector);
    }

    /**
     * The request's field selector, for list, watch and deletecollection (kube's authorizers may
     * read it); one that does not parse counts as none, as in kube, and the handler answers its 400
     * later.
     */
    private static FieldSelector fieldSelector(HttpRequest request) {
        try {
            return request.getUri()
                    .query()
                    .get("fieldSelector")
                    .map(FieldSelector::parse)
                    .orElse(FieldSelector.everything());
        } catch (ApiException unparsable) {
            return FieldSelector.everything();
        }
    }

    /** A valid path segment: what kube's request info accepts as a name from a selector. */
    private static boolean pathSegment(String name) {
        return !name.isEmpty()
                && !name.equals(".")
                && !name.equals("..")
                && name.indexOf('/') < 0
                && name.indexOf('%') < 0;
    }
}
