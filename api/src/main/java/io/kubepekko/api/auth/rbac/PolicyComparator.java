package io.kubepekko.api.auth.rbac;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's policy comparator ({@code validation.Covers}): whether the rules a user holds cover the
 * rules they ask to grant. The asked rules are broken into atoms of one group, resource, verb and
 * (if any) resource name, or one URL and verb; each atom must be covered by a single held rule.
 */
public final class PolicyComparator {

    private PolicyComparator() {}

    /**
     * The outcome of a comparison.
     *
     * @param covered whether every requested permission is held
     * @param uncovered the atoms not held, in the order they were asked
     */
    public record Coverage(boolean covered, List<PolicyRule> uncovered) {
        public Coverage {
            uncovered = List.copyOf(uncovered);
        }
    }

    /** Whether {@code owner} covers {@code requested}, and which atoms it does not. */
    public static Coverage covers(List<PolicyRule> owner, List<PolicyRule> requested) {
        List<PolicyRule> uncovered = new ArrayList<>();
        for (PolicyRule rule : requested) {
            for (PolicyRule atom : breakdown(rule)) {
                if (owner.stream().noneMatch(o -> ruleCovers(o, atom))) {
                    uncovered.add(atom);
                }
            }
        }
        return new Coverage(uncovered.isEmpty(), uncovered);
    }

    static List<PolicyRule> breakdown(PolicyRule rule) {
        List<PolicyRule> atoms = new ArrayList<>();
        for (String group : rule.apiGroups()) {
            for (String resource : rule.resources()) {
                for (String verb : rule.verbs()) {
                    if (rule.resourceNames().isEmpty()) {
                        atoms.add(
                                PolicyRule.resources(
                                        List.of(verb),
                                        List.of(group),
                                        List.of(resource),
                                        List.of()));
                    } else {
                        for (String name : rule.resourceNames()) {
                            atoms.add(
                                    PolicyRule.resources(
                                            List.of(verb),
                                            List.of(group),
                                            List.of(resource),
                                            List.of(name)));
                        }
                    }
                }
            }
        }
        // Non-resource URLs combine with verbs only.
        for (String url : rule.nonResourceURLs()) {
            for (String verb : rule.verbs()) {
                atoms.add(PolicyRule.nonResource(List.of(verb), List.of(url)));
            }
        }
        return atoms;
    }

    /**
     * kube's {@code ruleCovers}: wildcards are literal here except that a held {@code *} covers
     * anything (a held {@code pods} does not cover an asked {@code pods/log}, nor a held {@code
     * *}-suffixed URL an asked URL outside its prefix); a held rule limited to names covers only
     * asks for those names.
     */
    static boolean ruleCovers(PolicyRule owner, PolicyRule atom) {
        boolean verbs =
                owner.verbs().contains(PolicyRule.ALL) || owner.verbs().containsAll(atom.verbs());
        boolean groups =
                owner.apiGroups().contains(PolicyRule.ALL)
                        || owner.apiGroups().containsAll(atom.apiGroups());
        boolean resources =
                owner.resources().contains(PolicyRule.ALL)
                        || owner.resources().containsAll(atom.resources());
        boolean urls =
                atom.nonResourceURLs().stream()
                        .allMatch(
                                path ->
                                        owner.nonResourceURLs().stream()
                                                .anyMatch(
                                                        held ->
                                                                held.equals(path)
                                                                        || PolicyRule.prefixCovers(
                                                                                held, path)));
        boolean names =
                owner.resourceNames().isEmpty()
                        || (!atom.resourceNames().isEmpty()
                                && owner.resourceNames().containsAll(atom.resourceNames()));
        return verbs && groups && resources && names && urls;
    }
}
