package io.kubepekko.api.admission;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which admission plugins run, from kube-apiserver's {@code --enable-admission-plugins} and {@code
 * --disable-admission-plugins}: the plugins on by default, plus those enabled, minus those
 * disabled, in kube's order.
 *
 * <p>Every name kube-apiserver registers is accepted, as kube accepts it; a name it does not know
 * is refused in kube's words. Of kube's plugins this server has only some: enabling one it does not
 * have is refused (a plugin the operator asked for would otherwise silently not run), and disabling
 * one of kube's default plugins it does not have is accepted (it does not run either way), except
 * {@code NamespaceLifecycle}, which cannot be. {@code NodeRestriction} is on by default here,
 * unlike kube-apiserver, because the Node authorizer is ({@code --authorization-mode} defaults to
 * {@code Node,RBAC}): kube's own guidance runs the two together.
 */
public final class AdmissionPluginSelection {

    /** kube-apiserver's registered plugins in its order ({@code AllOrderedPlugins}). */
    static final List<String> KUBE_ORDER =
            List.of(
                    "AlwaysAdmit",
                    "NamespaceAutoProvision",
                    "NamespaceLifecycle",
                    "NamespaceExists",
                    "LimitPodHardAntiAffinityTopology",
                    "LimitRanger",
                    "ServiceAccount",
                    "NodeRestriction",
                    "TaintNodesByCondition",
                    "AlwaysPullImages",
                    "ImagePolicyWebhook",
                    "PodSecurity",
                    "PodNodeSelector",
                    "Priority",
                    "DefaultTolerationSeconds",
                    "PodTolerationRestriction",
                    "EventRateLimit",
                    "ExtendedResourceToleration",
                    "DefaultStorageClass",
                    "StorageObjectInUseProtection",
                    "PodGroupProtection",
                    "OwnerReferencesPermissionEnforcement",
                    "PersistentVolumeClaimResize",
                    "RuntimeClass",
                    "CertificateApproval",
                    "CertificateSigning",
                    "ClusterTrustBundleAttest",
                    "CertificateSubjectRestriction",
                    "DefaultIngressClass",
                    "DenyServiceExternalIPs",
                    "PodTopologyLabels",
                    "PodGroupWorkloadExists",
                    "NodeDeclaredFeatureValidator",
                    "JobValidation",
                    "PodResizeValidator",
                    "MutatingAdmissionPolicy",
                    "MutatingAdmissionWebhook",
                    "ValidatingAdmissionPolicy",
                    "ValidatingAdmissionWebhook",
                    "ResourceQuota",
                    "AlwaysDeny");

    /** kube-apiserver's default-on plugins, and NodeRestriction (see the class comment). */
    static final Set<String> DEFAULT_ON =
            Set.of(
                    "NamespaceLifecycle",
                    "LimitRanger",
                    "ServiceAccount",
                    "NodeRestriction",
                    "DefaultStorageClass",
                    "PersistentVolumeClaimResize",
                    "DefaultTolerationSeconds",
                    "MutatingAdmissionWebhook",
                    "ValidatingAdmissionWebhook",
                    "ResourceQuota",
                    "StorageObjectInUseProtection",
                    "PodGroupProtection",
                    "Priority",
                    "TaintNodesByCondition",
                    "RuntimeClass",
                    "CertificateApproval",
                    "CertificateSigning",
                    "ClusterTrustBundleAttest",
                    "CertificateSubjectRestriction",
                    "DefaultIngressClass",
                    "PodSecurity",
                    "PodTopologyLabels",
                    "MutatingAdmissionPolicy",
                    "ValidatingAdmissionPolicy",
                    "PodGroupWorkloadExists",
                    "NodeDeclaredFeatureValidator",
                    "JobValidation",
                    "PodResizeValidator");

    /** The plugins this server has. */
    static final Set<String> SERVED =
            Set.of(
                    "NamespaceLifecycle",
                    "LimitRanger",
                    "ServiceAccount",
                    "NodeRestriction",
                    "Priority",
                    "DefaultTolerationSeconds",
                    "DefaultStorageClass",
                    "MutatingAdmissionWebhook",
                    "ValidatingAdmissionWebhook",
                    "ResourceQuota");

    /**
     * Built into how this server's collections start and end with their namespace, not a plugin of
     * the chain: it cannot be turned off.
     */
    static final String ALWAYS_ON = "NamespaceLifecycle";

    /** The defaults: no flag given. */
    public static final AdmissionPluginSelection DEFAULT =
            new AdmissionPluginSelection(enabled(List.of(), List.of()));

    private final Set<String> enabled;

    private AdmissionPluginSelection(Set<String> enabled) {
        this.enabled = enabled;
    }

    /** Why the flags' lists cannot be used, in kube's words (and ours for a plugin not served). */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /**
     * The selection the two flags' lists make.
     *
     * @throws Invalid for a name kube does not register, a name in both lists, or a plugin enabled
     *     that this server does not have
     */
    public static AdmissionPluginSelection of(List<String> enable, List<String> disable)
            throws Invalid {
        List<String> problems = new ArrayList<>();
        for (String name : enable) {
            if (!KUBE_ORDER.contains(name)) {
                problems.add("enable-admission-plugins plugin \"" + name + "\" is unknown");
            }
        }
        for (String name : disable) {
            if (!KUBE_ORDER.contains(name)) {
                problems.add("disable-admission-plugins plugin \"" + name + "\" is unknown");
            }
        }
        Set<String> both = new TreeSet<>(enable);
        both.retainAll(Set.copyOf(disable));
        if (!both.isEmpty()) {
            problems.add(
                    "["
                            + String.join(" ", both)
                            + "] in enable-admission-plugins and disable-admission-plugins"
                            + " overlapped");
        }
        for (String name : enable) {
            if (KUBE_ORDER.contains(name) && !SERVED.contains(name)) {
                problems.add(
                        "enable-admission-plugins plugin \""
                                + name
                                + "\" is not served by this server");
            }
        }
        if (disable.contains(ALWAYS_ON)) {
            problems.add(
                    "disable-admission-plugins plugin \""
                            + ALWAYS_ON
                            + "\" cannot be disabled on this server");
        }
        if (!problems.isEmpty()) {
            // kube's aggregate: one error as itself, several in brackets
            throw new Invalid(
                    problems.size() == 1
                            ? problems.get(0)
                            : "[" + String.join(", ", problems) + "]");
        }
        return new AdmissionPluginSelection(enabled(enable, disable));
    }

    private static Set<String> enabled(List<String> enable, List<String> disable) {
        Set<String> on = new LinkedHashSet<>();
        for (String name : KUBE_ORDER) {
            boolean wanted =
                    enable.contains(name) || (DEFAULT_ON.contains(name) && !disable.contains(name));
            if (wanted && SERVED.contains(name)) {
                on.add(name);
            }
        }
        return on;
    }

    /** Every name kube-apiserver registers, in its order (what the flags accept). */
    public static List<String> registered() {
        return KUBE_ORDER;
    }

    /** Whether the plugin of kube's name {@code name} runs. */
    public boolean enabled(String name) {
        return enabled.contains(name);
    }

    /** The plugins that run, in kube's order. */
    public List<String> names() {
        return List.copyOf(enabled);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AdmissionPluginSelection other && enabled.equals(other.enabled);
    }

    @Override
    public int hashCode() {
        return enabled.hashCode();
    }

    @Override
    public String toString() {
        return String.join(",", enabled);
    }
}
