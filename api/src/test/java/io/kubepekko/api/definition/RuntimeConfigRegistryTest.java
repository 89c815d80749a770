package io.kubepekko.api.definition;

import static io.kubepekko.api.registry.ResourceType.builder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.VersionConversion;
import io.kubepekko.api.table.TablePrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which versions the built-in registry serves: kube 1.35's defaults, as {@code --runtime-config}
 * changes them with kube's precedence and refuses what kube refuses in kube's words; versions whose
 * lifecycle has ended are held and never served; storage is the same whatever is served.
 */
class RuntimeConfigRegistryTest {

    private static Registry registry(String runtimeConfig) {
        return Registry.builtin(RuntimeConfig.parse(runtimeConfig));
    }

    private static boolean serves(Registry r, String group, String version, String resource) {
        return r.served(group, version, resource).isPresent();
    }

    @Test
    void autoscalingV1TurnedOffLeavesV2ServingTheSameObjects() {
        Registry r = registry("autoscaling/v1=false");
        assertFalse(serves(r, "autoscaling", "v1", "horizontalpodautoscalers"));
        assertTrue(serves(r, "autoscaling", "v2", "horizontalpodautoscalers"));
        assertEquals(List.of("v2"), r.versions("autoscaling"));
        // Still held: managers who wrote through v1 keep their version's comparisons.
        assertTrue(
                r.servedVersions(new GroupResource("autoscaling", "horizontalpodautoscalers"))
                        .containsKey("autoscaling/v1"));
        Registry both = Registry.builtin();
        assertEquals(List.of("v2", "v1"), both.versions("autoscaling"));
    }

    @Test
    void byDefaultIpAddressesAreServedAtV1OnlyAndV1beta1IsHeld() {
        Registry r = Registry.builtin();
        assertTrue(serves(r, "networking.k8s.io", "v1", "ipaddresses"));
        assertFalse(serves(r, "networking.k8s.io", "v1beta1", "ipaddresses"));
        assertEquals(List.of("v1"), r.versions("networking.k8s.io"));
        assertTrue(
                r.servedVersions(new GroupResource("networking.k8s.io", "ipaddresses"))
                        .containsKey("networking.k8s.io/v1beta1"),
                "held for its managers' field ownership");
    }

    @Test
    void enablingV1beta1ServesItAfterV1AsADeprecatedVersion() {
        Registry r = registry("networking.k8s.io/v1beta1");
        ServedKind beta = r.served("networking.k8s.io", "v1beta1", "ipaddresses").orElseThrow();
        assertEquals(List.of("v1", "v1beta1"), r.versions("networking.k8s.io"));
        assertEquals("networking.k8s.io/v1", beta.storageType().apiVersion());
        VersionLifecycle deprecation = beta.deprecation().orElseThrow();
        assertEquals(
                "networking.k8s.io/v1beta1 IPAddress is deprecated in v1.34+, unavailable in v1.37+",
                deprecation.warning(beta.type().gvk()));
        assertEquals("1.37", deprecation.removed().toString());
        assertTrue(
                r.served("networking.k8s.io", "v1", "ipaddresses")
                        .orElseThrow()
                        .deprecation()
                        .isEmpty());
        assertEquals(
                List.of("ipaddresses"),
                r.resources("networking.k8s.io", "v1beta1").stream()
                        .map(ResourceType::resource)
                        .toList());
    }

    @Test
    void aDisabledGroupVersionIsNotServedButItsObjectsStayStored() {
        Registry r = registry("batch/v1=false");
        assertFalse(serves(r, "batch", "v1", "jobs"));
        assertFalse(serves(r, "batch", "v1", "cronjobs"));
        assertFalse(r.groups().contains("batch"));
        assertTrue(r.all().stream().noneMatch(t -> t.group().equals("batch")));
        assertEquals(Registry.builtin().stored(), r.stored());
        assertTrue(r.definition(new GroupResource("batch", "jobs")).isPresent());
    }

    static Stream<Arguments> precedence() {
        return Stream.of(
                Arguments.of(
                        "a resource turned on over its version turned off",
                        "batch/v1=false,batch/v1/jobs=true",
                        List.of("batch/v1/jobs"),
                        List.of("batch/v1/cronjobs")),
                Arguments.of(
                        "versions apply before resources, whatever the order given",
                        "batch/v1/jobs=true,batch/v1=false",
                        List.of("batch/v1/jobs"),
                        List.of("batch/v1/cronjobs")),
                Arguments.of(
                        "a resource turned off in a version turned on",
                        "batch/v1=true,batch/v1/cronjobs=false",
                        List.of("batch/v1/jobs"),
                        List.of("batch/v1/cronjobs")),
                Arguments.of(
                        "a version over its track",
                        "api/ga=false,batch/v1=true,batch/v1/cronjobs=false",
                        List.of("batch/v1/jobs"),
                        List.of("batch/v1/cronjobs", "apps/v1/deployments", "/v1/pods")),
                Arguments.of(
                        "a version over its track, given first",
                        "networking.k8s.io/v1beta1=true,api/beta=false",
                        List.of("networking.k8s.io/v1beta1/ipaddresses"),
                        List.of()),
                Arguments.of(
                        "api/all over everything, the core group back on",
                        "api/all=false,v1=true",
                        List.of("/v1/pods", "/v1/namespaces"),
                        List.of("apps/v1/deployments", "networking.k8s.io/v1/ipaddresses")),
                Arguments.of(
                        "api/beta turns the betas on",
                        "api/beta=true",
                        List.of("networking.k8s.io/v1beta1/ipaddresses", "apps/v1/deployments"),
                        List.of()),
                Arguments.of(
                        "api/all turns everything on",
                        "api/all=true",
                        List.of("networking.k8s.io/v1beta1/ipaddresses"),
                        List.of()),
                Arguments.of(
                        "a later value of a key wins",
                        "batch/v1=false,batch/v1=true",
                        List.of("batch/v1/jobs"),
                        List.of()),
                Arguments.of(
                        "values are Go booleans",
                        "batch/v1=0,apps/v1=True",
                        List.of("apps/v1/deployments"),
                        List.of("batch/v1/jobs")),
                Arguments.of(
                        "the core group can be turned off, as kube allows it",
                        "v1=false",
                        List.of("apps/v1/deployments"),
                        List.of("/v1/pods", "/v1/namespaces")),
                Arguments.of(
                        "a version kube knows but nothing serves is accepted and changes nothing",
                        "batch/v1beta1=true,node.k8s.io/v1=false,extensions/v1beta1/ingresses=true",
                        List.of("batch/v1/cronjobs"),
                        List.of("batch/v1beta1/cronjobs", "extensions/v1beta1/ingresses")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("precedence")
    void runtimeConfigOverridesTheDefaultsWithKubesPrecedence(
            String name, String runtimeConfig, List<String> served, List<String> notServed) {
        Registry r = registry(runtimeConfig);
        for (String gvr : served) {
            String[] p = gvr.split("/", -1);
            assertTrue(serves(r, p[0], p[1], p[2]), gvr + " served");
        }
        for (String gvr : notServed) {
            String[] p = gvr.split("/", -1);
            assertFalse(serves(r, p[0], p[1], p[2]), gvr + " not served");
        }
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("api/all=false", "invalid key with only api/all=false"),
                Arguments.of("apiall=false", "runtime-config invalid key apiall"),
                Arguments.of(
                        "apps/v1/deployments/scale=false",
                        "runtime-config invalid key apps/v1/deployments/scale"),
                Arguments.of("v2=false", "runtime-config invalid key v2"),
                Arguments.of(
                        "foo.example.com/v1=true,batch/v1=false,bar.example.com/v1",
                        "unknown api groups foo.example.com,bar.example.com"),
                Arguments.of("api/v2=true", "unknown api groups api"),
                Arguments.of("api/all=yes", "invalid value api/all=yes"),
                Arguments.of("api/beta", "invalid value api/beta="),
                Arguments.of(
                        "batch/v9=true", "group version batch/v9 that has not been registered"),
                Arguments.of("/v2=true", "group version v2 that has not been registered"),
                Arguments.of(
                        "batch/v1=maybe",
                        "invalid value of batch/v1: maybe, err: strconv.ParseBool: parsing \"maybe\":"
                                + " invalid syntax"),
                Arguments.of(
                        "batch/v1/Jobs=false",
                        "invalid key batch/v1/Jobs: group/version/resource and resource is always"
                                + " lowercase plural, not \"Jobs\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWhatKubeRefusesInItsWords(String runtimeConfig, String message) {
        ApiEnablement.InvalidException e =
                assertThrows(ApiEnablement.InvalidException.class, () -> registry(runtimeConfig));
        assertEquals(message, e.getMessage());
    }

    /** A CronJob version kube 1.35 no longer serves, defined as the registry could hold it. */
    private static KindDefinition cronJobsV1beta1() {
        return KindDefinition.servedVersion(
                        builder("batch", "v1beta1", "CronJob", "cronjobs"),
                        new GroupResource("batch", "cronjobs"),
                        VersionConversion.IDENTITY,
                        TablePrinter.DEFAULT)
                .withLifecycle(
                        VersionLifecycle.tagged(
                                "v1beta1",
                                "1.8",
                                "1.21",
                                "1.25",
                                new GroupVersionKind("batch", "v1", "CronJob")));
    }

    @Test
    void aRemovedVersionIsHeldAndNeverServedEvenWhenTurnedOn() {
        List<KindDefinition> definitions = new ArrayList<>(BuiltinKinds.all());
        definitions.add(cronJobsV1beta1());
        for (String config : List.of("", "batch/v1beta1=true", "api/all=true")) {
            Registry r = new Registry(definitions, RuntimeConfig.parse(config));
            assertFalse(serves(r, "batch", "v1beta1", "cronjobs"), config);
            assertEquals(List.of("v1"), r.versions("batch"), config);
            assertEquals(
                    List.of(cronJobsV1beta1().type().gvk()),
                    r.unavailable().stream().map(d -> d.type().gvk()).toList());
            assertFalse(
                    r.servedVersions(new GroupResource("batch", "cronjobs"))
                            .containsKey("batch/v1beta1"));
        }
    }

    @Test
    void kube135sRemovedVersionsOfOurKindsAreNotServed() {
        Registry r = registry("api/all=true");
        for (RemovedVersions.RemovedVersion removed : RemovedVersions.KUBE_1_35) {
            GroupVersionKind k = removed.kind();
            assertTrue(removed.lifecycle().unavailableIn(Release.EMULATED), k.toString());
            assertNotNull(removed.lifecycle().replacement(), k.toString());
            assertFalse(serves(r, k.group(), k.version(), removed.resource()), k.toString());
            assertTrue(
                    r.resources(k.group(), k.version()).stream()
                            .noneMatch(t -> t.resource().equals(removed.resource())),
                    k.toString());
            // the kind is served at its replacement
            GroupVersionKind by = removed.lifecycle().replacement();
            assertTrue(serves(r, by.group(), by.version(), removed.resource()), by.toString());
        }
    }

    @Test
    void everyBuiltinPrereleaseVersionNamesItsIntroduction() {
        for (KindDefinition d : BuiltinKinds.all()) {
            ResourceType t = d.type();
            if (d.lifecycle().track() != VersionLifecycle.Track.GA) {
                assertNotNull(d.lifecycle().introduced(), t.apiVersion() + " " + t.kind());
            }
            assertFalse(d.lifecycle().unavailableIn(Release.EMULATED), t.apiVersion());
        }
    }
}
