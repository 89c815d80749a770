package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The claims of a service-account token as kube's {@code serviceaccount.Claims} builds them: the
 * registered claims {@code sub}, {@code aud}, {@code iat}, {@code nbf}, {@code exp}, {@code jti}
 * and the private {@code kubernetes.io} claim naming the namespace, the service account and the
 * object the token is bound to. A pod-bound token also names the pod's node (by name alone when the
 * node did not exist). {@code warnafter} is set only for kube's extended pod-bound tokens.
 *
 * @param namespace the service account's namespace
 * @param serviceAccount the service account
 * @param pod the pod the token is bound to
 * @param secret the secret the token is bound to
 * @param node the node the token is bound to, or the node of the bound pod
 * @param audiences the token's audiences
 * @param issuedAt {@code iat} and {@code nbf}
 * @param expiry {@code exp}
 * @param warnAfter {@code kubernetes.io.warnafter}
 * @param id {@code jti}
 */
public record ServiceAccountClaims(
        String namespace,
        ObjectRef serviceAccount,
        Optional<ObjectRef> pod,
        Optional<ObjectRef> secret,
        Optional<ObjectRef> node,
        List<String> audiences,
        Instant issuedAt,
        Instant expiry,
        Optional<Instant> warnAfter,
        String id) {

    public ServiceAccountClaims {
        audiences = List.copyOf(audiences);
        if (secret.isPresent() && (pod.isPresent() || node.isPresent())) {
            throw new IllegalArgumentException("a token is bound to one object");
        }
    }

    /** What a token may be bound to. */
    public sealed interface Binding {}

    /** Not bound: valid while the service account exists. */
    public record Unbound() implements Binding {}

    /**
     * Bound to a pod; {@code node} is the pod's node when it is scheduled.
     *
     * @param pod the pod
     * @param node its node (uid empty when the node object did not exist)
     */
    public record ToPod(ObjectRef pod, Optional<ObjectRef> node) implements Binding {}

    /**
     * @param secret the secret
     */
    public record ToSecret(ObjectRef secret) implements Binding {}

    /**
     * @param node the node
     */
    public record ToNode(ObjectRef node) implements Binding {}

    /**
     * kube's claims for a new token.
     *
     * @param expiration the token's lifetime
     * @param warnAfter for kube's extended pod-bound tokens, when clients are warned (0: none)
     */
    public static ServiceAccountClaims of(
            String namespace,
            ObjectRef serviceAccount,
            Binding binding,
            List<String> audiences,
            Instant now,
            Duration expiration,
            Duration warnAfter,
            String id) {
        Instant issued = now.truncatedTo(ChronoUnit.SECONDS);
        Optional<ObjectRef> pod = Optional.empty();
        Optional<ObjectRef> secret = Optional.empty();
        Optional<ObjectRef> node = Optional.empty();
        if (binding instanceof ToPod p) {
            pod = Optional.of(p.pod());
            node = p.node();
        } else if (binding instanceof ToSecret s) {
            secret = Optional.of(s.secret());
        } else if (binding instanceof ToNode n) {
            node = Optional.of(n.node());
        }
        return new ServiceAccountClaims(
                namespace,
                serviceAccount,
                pod,
                secret,
                node,
                audiences,
                issued,
                issued.plus(expiration),
                warnAfter.isZero() ? Optional.empty() : Optional.of(issued.plus(warnAfter)),
                id);
    }

    /** kube's user name of a service account: {@code system:serviceaccount:<ns>:<name>}. */
    public String subject() {
        return ServiceAccountUser.userName(namespace, serviceAccount.name());
    }

    /**
     * The JWT payload with {@code iss}: keys in the order kube's encoder writes them (sorted),
     * {@code aud} always an array, times in seconds since the epoch.
     */
    public ObjectNode payload(String issuer) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        ArrayNode aud = o.putArray("aud");
        audiences.forEach(aud::add);
        o.put("exp", expiry.getEpochSecond());
        o.put("iat", issuedAt.getEpochSecond());
        o.put("iss", issuer);
        if (!id.isEmpty()) {
            o.put("jti", id);
        }
        ObjectNode k8s = o.putObject("kubernetes.io");
        k8s.put("namespace", namespace);
        node.ifPresent(n -> ref(k8s, "node", n));
        pod.ifPresent(p -> ref(k8s, "pod", p));
        secret.ifPresent(s -> ref(k8s, "secret", s));
        ref(k8s, "serviceaccount", serviceAccount);
        warnAfter.ifPresent(w -> k8s.put("warnafter", w.getEpochSecond()));
        o.put("nbf", issuedAt.getEpochSecond());
        o.put("sub", subject());
        return o;
    }

    // kube omits an empty name or uid (omitempty).
    private static void ref(ObjectNode parent, String field, ObjectRef ref) {
        ObjectNode r = parent.putObject(field);
        if (!ref.name().isEmpty()) {
            r.put("name", ref.name());
        }
        if (!ref.uid().isEmpty()) {
            r.put("uid", ref.uid());
        }
    }
}
