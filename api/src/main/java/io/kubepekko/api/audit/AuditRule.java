package io.kubepekko.api.audit;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One rule of an audit policy, kube's {@code audit.PolicyRule}: a request matches when it matches
 * every non-empty field (an empty list matches everything). A rule names resources (and namespaces)
 * or non-resource URLs, never both; a rule with neither matches both kinds of request.
 *
 * @param level the level a matching request is recorded at
 * @param users user names, any of which matches
 * @param userGroups groups, membership in any of which matches
 * @param verbs kube verbs ({@code get}, {@code list}, ...; the lower-case method for non-resource
 *     requests)
 * @param resources resources by group
 * @param namespaces namespaces; {@code ""} matches cluster-scoped resources
 * @param nonResourceURLs paths, exact or with a trailing {@code *}, or {@code *} alone
 * @param omitStages stages not recorded for matching requests, the policy's own already added
 * @param omitManagedFields whether bodies drop {@code metadata.managedFields}; empty: the policy's
 *     default
 */
public record AuditRule(
        AuditLevel level,
        List<String> users,
        List<String> userGroups,
        List<String> verbs,
        List<AuditResources> resources,
        List<String> namespaces,
        List<String> nonResourceURLs,
        Set<AuditStage> omitStages,
        Optional<Boolean> omitManagedFields) {

    public AuditRule {
        users = List.copyOf(users);
        userGroups = List.copyOf(userGroups);
        verbs = List.copyOf(verbs);
        resources = List.copyOf(resources);
        namespaces = List.copyOf(namespaces);
        nonResourceURLs = List.copyOf(nonResourceURLs);
        omitStages = Set.copyOf(omitStages);
    }

    /** A rule that records every request at {@code level}. */
    public static AuditRule catchAll(AuditLevel level) {
        return new AuditRule(
                level,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Set.of(),
                Optional.empty());
    }

    /** Whether the request described by {@code attrs} falls under this rule (kube's checker). */
    public boolean matches(AuthorizationAttributes attrs) {
        return matches(attrs, true);
    }

    /**
     * As {@link #matches(AuthorizationAttributes)}; without {@code userKnown} (a request whose
     * credentials were refused) a rule naming users or groups never matches, as in kube.
     */
    boolean matches(AuthorizationAttributes attrs, boolean userKnown) {
        UserInfo user = attrs.user();
        if (!users.isEmpty() && (!userKnown || !users.contains(user.name()))) {
            return false;
        }
        if (!userGroups.isEmpty()
                && (!userKnown || user.groups().stream().noneMatch(userGroups::contains))) {
            return false;
        }
        if (!verbs.isEmpty() && !verbs.contains(attrs.verb())) {
            return false;
        }
        if (!namespaces.isEmpty() || !resources.isEmpty()) {
            return matchesResource(attrs);
        }
        if (!nonResourceURLs.isEmpty()) {
            return !attrs.resourceRequest()
                    && nonResourceURLs.stream().anyMatch(spec -> pathMatches(attrs.path(), spec));
        }
        return true;
    }

    private boolean matchesResource(AuthorizationAttributes attrs) {
        if (!attrs.resourceRequest()) {
            return false;
        }
        if (!namespaces.isEmpty() && !namespaces.contains(attrs.namespace())) {
            return false;
        }
        return resources.isEmpty()
                || resources.stream()
                        .anyMatch(
                                r ->
                                        r.matches(
                                                attrs.apiGroup(),
                                                attrs.resource(),
                                                attrs.subresource(),
                                                attrs.name()));
    }

    private static boolean pathMatches(String path, String spec) {
        if (spec.equals("*") || spec.equals(path)) {
            return true;
        }
        if (spec.endsWith("*")) {
            // kube trims every trailing '*', then matches by prefix
            int end = spec.length();
            while (end > 0 && spec.charAt(end - 1) == '*') {
                end--;
            }
            return path.startsWith(spec.substring(0, end));
        }
        return false;
    }
}
