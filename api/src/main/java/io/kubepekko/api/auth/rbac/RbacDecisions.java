package io.kubepekko.api.auth.rbac;

import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The RBAC decisions already made over one {@link RbacPolicy} snapshot. A snapshot never changes,
 * and RBAC's answer depends only on the user's name and groups and on the request's verb, group,
 * resource, subresource, namespace, name and non-resource path, so a decision made once holds for
 * every later request with the same ones until the snapshot is replaced — when this map goes with
 * it. A client repeating a request (a controller's GET, a kubelet's status write) skips the walk
 * over its bindings' rules, which is most of the gate's cost per request.
 *
 * <p>Bounded: at {@link #LIMIT} entries the map starts over, so requests naming ever new objects
 * cost memory for at most that many decisions.
 */
final class RbacDecisions {
    /** Decisions kept per snapshot before the map starts over. */
    static final int LIMIT = 8192;

    private final RbacPolicy policy;
    private volatile Map<Key, Decision> decisions = new ConcurrentHashMap<>();

    RbacDecisions(RbacPolicy policy) {
        this.policy = policy;
    }

    RbacPolicy policy() {
        return policy;
    }

    /** The decision for {@code attributes}: the one made before, or {@code decide}'s, kept. */
    Decision decide(AuthorizationAttributes attributes, Function<RbacPolicy, Decision> decide) {
        Key key = Key.of(attributes);
        Map<Key, Decision> current = decisions;
        Decision known = current.get(key);
        if (known != null) {
            return known;
        }
        Decision made = decide.apply(policy);
        if (current.size() >= LIMIT) {
            current = new ConcurrentHashMap<>();
            decisions = current;
        }
        current.put(key, made);
        return made;
    }

    /** Decisions kept now (tests). */
    int size() {
        return decisions.size();
    }

    /** What an RBAC decision depends on: kube's {@code appliesTo} and {@code RuleAllows}. */
    private record Key(
            String user,
            List<String> groups,
            String verb,
            boolean resourceRequest,
            String namespace,
            String apiGroup,
            String resource,
            String subresource,
            String name,
            String path) {

        static Key of(AuthorizationAttributes a) {
            return new Key(
                    a.user().name(),
                    a.user().groups(),
                    a.verb(),
                    a.resourceRequest(),
                    a.namespace(),
                    a.apiGroup(),
                    a.resource(),
                    a.subresource(),
                    a.name(),
                    a.path());
        }
    }
}
