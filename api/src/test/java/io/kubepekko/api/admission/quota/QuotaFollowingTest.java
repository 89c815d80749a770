package io.kubepekko.api.admission.quota;

import static io.kubepekko.api.admission.quota.ResourceQuotaAdmissionTest.obj;
import static io.kubepekko.api.admission.quota.ResourceQuotaAdmissionTest.quota;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which resources quota follows (only those the quotas observed limit something of, through the
 * evaluators' own matching), and what the ledger does while a followed resource has not listed:
 * admission refuses a write a quota limits of it as kube's {@code status unknown}, and only the
 * quotas limiting it are not ready.
 */
class QuotaFollowingTest {

    private static final GroupResource QUOTAS = new GroupResource("", "resourcequotas");
    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final GroupResource CONFIGMAPS = new GroupResource("", "configmaps");
    private static final GroupResource WIDGETS = new GroupResource("example.com", "widgets");

    /** The built-in stored resources and a custom resource's. */
    private static final List<ResourceType> STORED = stored();

    private static List<ResourceType> stored() {
        List<ResourceType> stored = new ArrayList<>(Registry.builtin().stored());
        stored.add(ResourceType.builder("example.com", "v1", "Widget", "widgets").build());
        return stored;
    }

    static Stream<Arguments> namesAndTheResourcesTheyNeed() {
        return Stream.of(
                Arguments.of("cpu", "pods"),
                Arguments.of("requests.memory", "pods"),
                Arguments.of("limits.ephemeral-storage", "pods"),
                Arguments.of("pods", "pods"),
                Arguments.of("count/pods", "pods"),
                Arguments.of("requests.nvidia.com/gpu", "pods"),
                Arguments.of("hugepages-2Mi", "pods"),
                Arguments.of("services", "services"),
                Arguments.of("services.nodeports", "services"),
                Arguments.of("services.loadbalancers", "services"),
                Arguments.of("requests.storage", "persistentvolumeclaims"),
                Arguments.of("persistentvolumeclaims", "persistentvolumeclaims"),
                Arguments.of(
                        "gold.storageclass.storage.k8s.io/requests.storage",
                        "persistentvolumeclaims"),
                Arguments.of(
                        "gold.storageclass.storage.k8s.io/persistentvolumeclaims",
                        "persistentvolumeclaims"),
                Arguments.of("configmaps", "configmaps"),
                Arguments.of("count/configmaps", "configmaps"),
                Arguments.of("secrets", "secrets"),
                Arguments.of("count/deployments.apps", "deployments.apps"),
                Arguments.of("count/widgets.example.com", "widgets.example.com"),
                Arguments.of("resourcequotas", ""),
                // kube ignores events; a cluster-scoped resource is in no namespace's quota
                Arguments.of("count/events", ""),
                Arguments.of("count/namespaces", ""),
                Arguments.of("count/nothings.example.com", ""),
                // its evaluator charges it, but this server does not store the kind
                Arguments.of("count/replicationcontrollers", ""));
    }

    @ParameterizedTest(name = "{0} needs {1}")
    @MethodSource("namesAndTheResourcesTheyNeed")
    void aQuotaNeedsTheResourcesWhoseEvaluatorChargesWhatItNames(String name, String resource) {
        Set<GroupResource> expected =
                resource.isEmpty() ? Set.of(QUOTAS) : Set.of(QUOTAS, GroupResource.parse(resource));
        assertEquals(expected, Set.copyOf(QuotaEvaluators.needed(List.of(name), STORED)));
    }

    @Test
    void noNamesNeedOnlyTheQuotas() {
        assertEquals(List.of(QUOTAS), List.copyOf(QuotaEvaluators.needed(List.of(), STORED)));
    }

    @Test
    void aQuotasNamesAreThoseOfItsSpecAndOfItsStatus() {
        ObjectNode q = quota("q", "{'hard':{'pods':'2'}}");
        ((ObjectNode) q.path("status").path("hard")).put("count/configmaps", "1");
        assertEquals(Set.of("pods", "count/configmaps"), QuotaSpec.limitedNames(q));
    }

    @Test
    void followingStartsWithTheQuotasAndAddsEachNeededResourceOnce() {
        QuotaFollowing following = new QuotaFollowing(STORED);
        assertEquals(List.of(QUOTAS), following.start());
        assertEquals(List.of(), following.start());
        assertEquals(
                List.of(CONFIGMAPS, PODS),
                following.neededFor(quota("a", "{'hard':{'cpu':'1','configmaps':'2'}}")));
        assertEquals(
                List.of(WIDGETS),
                following.neededFor(
                        quota("b", "{'hard':{'pods':'1','count/widgets.example.com':'2'}}")));
        assertEquals(List.of(), following.neededFor(quota("c", "{'hard':{'count/pods':'1'}}")));
    }

    @Nested
    class LedgerWhileAResourceIsNotListed {
        private final QuotaLedger ledger =
                new QuotaLedger(
                        Clock.fixed(Instant.parse("2026-11-30T00:00:00Z"), ZoneOffset.UTC),
                        Duration.ofSeconds(30));
        private final QuotaEvaluator configmaps = QuotaEvaluators.of(CONFIGMAPS).orElseThrow();
        private final QuotaEvaluator pods = QuotaEvaluators.of(PODS).orElseThrow();

        private QuotaCheck.Result create(QuotaEvaluator evaluator, String name) {
            return ledger.admit(
                    evaluator,
                    Operation.CREATE,
                    "ns",
                    obj(
                            "{'metadata':{'name':'"
                                    + name
                                    + "','namespace':'ns','uid':'"
                                    + name
                                    + "'}}"),
                    null,
                    false);
        }

        /** Pods followed and listed, quotas listed; then a quota on configmaps is created. */
        private void podsListedThenConfigMapsNeeded() {
            ledger.follow(QUOTAS);
            ledger.follow(PODS);
            ledger.replace(PODS, List.of());
            ledger.replace(QUOTAS, List.of(quota("p", "{'hard':{'pods':'5'}}")));
            assertEquals(Optional.empty(), ledger.readiness());
            ledger.follow(CONFIGMAPS);
            ledger.put(QUOTAS, quota("c", "{'hard':{'count/configmaps':'1'}}"));
        }

        @Test
        void aWriteAQuotaLimitsIsRefusedAsStatusUnknownUntilItsResourceIsListed() {
            podsListedThenConfigMapsNeeded();
            assertEquals(
                    new QuotaCheck.Refused(
                            "status unknown for quota: c, resources: count/configmaps"),
                    create(configmaps, "a"));
            assertTrue(create(pods, "p1") instanceof QuotaCheck.Admitted, "pods are listed");

            ledger.replace(
                    CONFIGMAPS,
                    List.of(obj("{'metadata':{'name':'old','namespace':'ns','uid':'old'}}")));
            assertEquals(
                    new QuotaCheck.Refused(
                            "exceeded quota: c, requested: count/configmaps=1, used:"
                                    + " count/configmaps=1, limited: count/configmaps=1"),
                    create(configmaps, "a"),
                    "counted exactly once listed");
        }

        @Test
        void onlyTheQuotasLimitingAnUnlistedResourceAreNotReady() {
            podsListedThenConfigMapsNeeded();
            assertEquals(Optional.empty(), ledger.readiness(), "the server stays ready");
            assertEquals(Optional.empty(), ledger.readiness("ns", "p"));
            assertEquals(
                    Optional.of("resource quota usage not listed yet: configmaps"),
                    ledger.readiness("ns", "c"));
            ledger.replace(CONFIGMAPS, List.of());
            assertEquals(Optional.empty(), ledger.readiness("ns", "c"));
        }

        @Test
        void theLedgerIsReadyOnceWhatTheQuotasNeededAtTheirFirstListIsListed() {
            assertEquals(
                    Optional.of("resource quota informers not started yet"), ledger.readiness());
            ledger.follow(QUOTAS);
            assertEquals(
                    Optional.of("resource quota usage not listed yet: resourcequotas"),
                    ledger.readiness());
            ledger.follow(CONFIGMAPS);
            ledger.replace(QUOTAS, List.of(quota("c", "{'hard':{'configmaps':'1'}}")));
            assertEquals(
                    Optional.of("resource quota usage not listed yet: configmaps"),
                    ledger.readiness());
            ledger.replace(CONFIGMAPS, List.of());
            assertEquals(Optional.empty(), ledger.readiness());
        }

        @Test
        void aResourceNeverFollowedIsKnownToUseNothingMore() {
            ledger.replace(QUOTAS, List.of(quota("c", "{'hard':{'count/configmaps':'1'}}")));
            assertTrue(create(configmaps, "a") instanceof QuotaCheck.Admitted);
            assertEquals(Optional.empty(), ledger.readiness("ns", "c"));
        }
    }
}
