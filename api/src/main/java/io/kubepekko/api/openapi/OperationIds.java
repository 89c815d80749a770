package io.kubepekko.api.openapi;

import io.kubepekko.api.GroupVersionKind;

/**
 * Operation ids in kube-apiserver's style: a verb, the group (without {@code .k8s.io}; the core
 * group is {@code core}) and version camel-cased, then the rest, e.g. {@code
 * patchAppsV1NamespacedDeploymentScale} or {@code deleteCoreV1CollectionNamespacedPod}. Generated
 * clients derive method names from these.
 */
final class OperationIds {
    private OperationIds() {}

    /**
     * {@code verb + GroupVersion + rest}; {@code rest} is already camel case ({@code
     * NamespacedPod}).
     */
    static String of(String verb, GroupVersionKind gv, String rest) {
        return verb + camel(groupLabel(gv.group()), true) + camel(gv.version(), true) + rest;
    }

    /**
     * The tag kube-apiserver puts on a group-version's operations, e.g. {@code
     * rbacAuthorization_v1}.
     */
    static String tag(GroupVersionKind gv) {
        return camel(groupLabel(gv.group()), false) + "_" + camel(gv.version(), false);
    }

    private static String groupLabel(String group) {
        if (group.isEmpty()) {
            return "core";
        }
        return group.endsWith(".k8s.io")
                ? group.substring(0, group.length() - ".k8s.io".length())
                : group;
    }

    /**
     * Drops every character that cannot appear in an identifier and upper-cases the letter that
     * follows a dropped one; a leading digit is dropped too. {@code rbac.authorization} becomes
     * {@code RbacAuthorization}, {@code v1beta1} becomes {@code V1beta1}.
     */
    static String camel(String s, boolean capitalizeFirst) {
        StringBuilder out = new StringBuilder(s.length());
        boolean upperNext = capitalizeFirst;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (Character.isLetter(cp) || cp == '_' || (i != 0 && Character.isDigit(cp))) {
                out.appendCodePoint(upperNext ? Character.toUpperCase(cp) : cp);
                upperNext = false;
            } else {
                upperNext = true;
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }
}
