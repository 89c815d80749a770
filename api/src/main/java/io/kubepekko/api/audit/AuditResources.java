package io.kubepekko.api.audit;

import java.util.List;

/**
 * The resources of one API group a rule applies to, kube's {@code audit.GroupResources}. A resource
 * is {@code pods}, {@code pods/log} (a subresource), {@code *} (everything in the group,
 * subresources included), {@code pods/*} (every subresource of pods) or {@code *}{@code /scale}
 * (that subresource of every resource).
 *
 * @param group the API group, empty for the core group
 * @param resources the resources; empty means every resource and subresource of the group
 * @param resourceNames object names; empty means every object
 */
public record AuditResources(String group, List<String> resources, List<String> resourceNames) {

    public AuditResources {
        group = group == null ? "" : group;
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
    }

    /**
     * Whether a request for {@code resource}/{@code subresource} (empty when none) named {@code
     * name} in {@code group} is one of these, with kube's checker's semantics.
     */
    boolean matches(String apiGroup, String resource, String subresource, String name) {
        if (!group.equals(apiGroup)) {
            return false;
        }
        if (resources.isEmpty()) {
            return true;
        }
        if (!resourceNames.isEmpty() && !resourceNames.contains(name)) {
            return false;
        }
        String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
        for (String spec : resources) {
            if (spec.equals(combined) || spec.equals("*")) {
                return true;
            }
            if (!subresource.isEmpty()
                    && spec.startsWith("*/")
                    && spec.substring(2).equals(subresource)) {
                return true;
            }
            // "pods/*" matches the subresources of pods and, as in kube, pods itself
            if (spec.endsWith("/*") && spec.substring(0, spec.length() - 2).equals(resource)) {
                return true;
            }
        }
        return false;
    }
}
