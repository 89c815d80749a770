package io.kubepekko.api.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kubepekko.api.definition.Registry;
import org.junit.jupiter.api.Test;

/** Kubernetes' namespace rules for owner references. */
class OwnerLocationTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static OwnerReference ref(String apiVersion, String kind) {
        return new OwnerReference(apiVersion, kind, "owner", "u", false, false);
    }

    @Test
    void aNamespacedOwnerIsLookedUpInTheDependentsNamespace() {
        OwnerLocation.At at =
                assertInstanceOf(
                        OwnerLocation.At.class,
                        OwnerLocation.of(REGISTRY, "team-a", ref("apps/v1", "Deployment")));
        assertEquals("deployments", at.type().resource());
        assertEquals("team-a", at.namespace());
        assertEquals("owner", at.name());
    }

    @Test
    void aClusterScopedOwnerIsLookedUpWithoutNamespace() {
        OwnerLocation.At at =
                assertInstanceOf(
                        OwnerLocation.At.class,
                        OwnerLocation.of(REGISTRY, "team-a", ref("v1", "Namespace")));
        assertEquals("", at.namespace());
    }

    @Test
    void aClusterScopedDependentCannotHaveANamespacedOwner() {
        OwnerLocation.Unresolvable u =
                assertInstanceOf(
                        OwnerLocation.Unresolvable.class,
                        OwnerLocation.of(REGISTRY, "", ref("v1", "ConfigMap")));
        assertEquals(OwnerLocation.Reason.NAMESPACED_OWNER_OF_CLUSTER_SCOPED, u.reason());
        assertEquals("cluster-scoped objects cannot refer to namespaced owners", u.message());
    }

    @Test
    void anUnservedKindOrVersionIsUnresolvable() {
        assertEquals(
                OwnerLocation.Reason.UNKNOWN_KIND,
                assertInstanceOf(
                                OwnerLocation.Unresolvable.class,
                                OwnerLocation.of(REGISTRY, "ns", ref("example.com/v1", "Widget")))
                        .reason());
        assertEquals(
                OwnerLocation.Reason.UNKNOWN_KIND,
                assertInstanceOf(
                                OwnerLocation.Unresolvable.class,
                                OwnerLocation.of(REGISTRY, "ns", ref("apps/v1beta9", "Deployment")))
                        .reason());
    }
}
