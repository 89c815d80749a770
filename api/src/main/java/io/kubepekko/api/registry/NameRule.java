package io.kubepekko.api.registry;

/**
 * Which rule an object's {@code metadata.name} must satisfy (Kubernetes' per-kind {@code
 * ValidateNameFunc}).
 */
public enum NameRule {
    /**
     * RFC 1123 subdomain: lowercase alphanumerics, '-' and '.', at most 253 characters (most
     * kinds).
     */
    DNS_SUBDOMAIN,
    /** RFC 1123 label: lowercase alphanumerics and '-', at most 63 characters (namespaces). */
    DNS_LABEL,
    /** RFC 1035 label: like a DNS label but starting with a letter (services). */
    DNS1035_LABEL,
    /** Any string usable as one path segment: not '.', '..', and no '/' or '%' (RBAC kinds). */
    PATH_SEGMENT,
    /**
     * An IP address in canonical form (networking.k8s.io IPAddresses); a {@code generateName} is
     * held to the same rule.
     */
    IP_ADDRESS
}
