package io.kubepekko.api.watch;

import static io.kubepekko.api.watch.FeatureGates.WATCH_LIST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.kubepekko.api.watch.FeatureGates.Gate;
import io.kubepekko.api.watch.FeatureGates.Stage;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class FeatureGatesTest {

    /** One gate of each kind kube 1.35 has, as component-base decides them. */
    private static final String ALPHA = "StorageVersionAPI";

    private static final String BETA_OFF = "ConcurrentWatchObjectDecode";
    private static final String GA_LOCKED = "ConsistentListFromCache";
    private static final String DEPRECATED = "KMSv1";
    private static final String DEPRECATED_LOCKED = "WatchFromStorageWithoutResourceVersion";

    private static final List<String> SAMPLE =
            List.of(ALPHA, WATCH_LIST, BETA_OFF, GA_LOCKED, DEPRECATED, DEPRECATED_LOCKED);

    private static List<Boolean> states(FeatureGates gates) {
        return SAMPLE.stream().map(gates::enabled).toList();
    }

    @Test
    void eachStageHasKubesDefault() {
        assertEquals(
                List.of(false, true, false, true, false, false), states(FeatureGates.defaults()));
        assertEquals(FeatureGates.defaults(), FeatureGates.parse(""));
        for (Gate gate : FeatureGates.known()) {
            switch (gate.stage()) {
                case ALPHA -> assertFalse(gate.defaultEnabled() || gate.locked(), gate.name());
                case BETA -> assertFalse(gate.locked(), gate.name());
                case GA -> assertTrue(gate.defaultEnabled(), gate.name());
                case DEPRECATED -> {}
            }
        }
    }

    @Test
    void theGatesAreKubeApiserver135sInItsOrder() {
        List<String> names = FeatureGates.known().stream().map(Gate::name).toList();
        // kube-apiserver 1.35's whole registry: pkg/features with the generic API server's,
        // apiextensions', controller-manager's and zpages' gates, logs, metrics and client-go
        assertEquals(218, names.size());
        // kube keeps them sorted case-sensitively, upper case first
        assertEquals(names.stream().sorted().toList(), names);
        assertEquals(
                new Gate(WATCH_LIST, Stage.BETA, true, false),
                FeatureGates.known().get(names.indexOf(WATCH_LIST)));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "GangScheduling=true", // kube pkg/features (scheduler), alpha
                "PodLevelResources=false", // kubelet, beta
                "InformerResourceVersion=false", // client-go, GA not locked
                "WatchListClient=false", // client-go, beta
                "ContextualLogging=false", // component-base logs
                "ComponentSLIs=true", // component-base metrics, GA locked on
                "CRDObservedGenerationTracking=true", // apiextensions-apiserver
                "CloudControllerManagerWebhook=true", // controller-manager
                "ComponentStatusz=true", // component-base zpages
                "RuntimeClassInImageCriApi=true" // kube's spelling, not the Go constant's
            })
    void gatesOfEveryComponentInKubeApiserversRegistryAreAccepted(String flag) {
        FeatureGates gates = FeatureGates.parse(flag);
        String name = flag.substring(0, flag.indexOf('='));
        assertEquals(
                Boolean.parseBoolean(flag.substring(flag.indexOf('=') + 1)), gates.enabled(name));
    }

    @Test
    void kubeletAndControllerGatesKeepKubesStagesAndLocks() {
        assertEquals(
                new Gate("InPlacePodVerticalScaling", Stage.GA, true, true),
                FeatureGates.known().stream()
                        .filter(g -> g.name().equals("InPlacePodVerticalScaling"))
                        .findFirst()
                        .orElseThrow());
        assertTrue(
                FeatureGates.parse("InPlacePodVerticalScaling=true")
                        .enabled("InPlacePodVerticalScaling"));
        IllegalArgumentException locked =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                FeatureGates.parse(
                                        "InPlacePodVerticalScaling=false,JobManagedBy=false"));
        assertEquals(
                "[cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true,"
                        + " cannot set feature gate JobManagedBy to false, feature is locked to true]",
                locked.getMessage());
        FeatureGates allAlpha = FeatureGates.parse("AllAlpha=true");
        assertTrue(allAlpha.enabled("GangScheduling"));
        assertFalse(allAlpha.enabled("AllowDNSOnlyNodeCSR"), "deprecated: no meta-gate moves it");
        assertEquals(
                List.of(
                        "Setting deprecated feature gate GitRepoVolumeDriver=true. It will be removed in a future release."),
                FeatureGates.parse("GitRepoVolumeDriver=true").warnings());
        IllegalArgumentException unknown =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> FeatureGates.parse("RuntimeClassInImageCriAPI=true"));
        assertEquals("unrecognized feature gate: RuntimeClassInImageCriAPI", unknown.getMessage());
    }

    @Test
    void aDataLineIsNameStageDefaultAndAnOptionalLock() {
        assertEquals(
                new Gate("X", Stage.DEPRECATED, false, true),
                FeatureGateSpecs.gate("X DEPRECATED false locked"));
        assertEquals(new Gate("Y", Stage.BETA, true, false), FeatureGateSpecs.gate("Y BETA true"));
        assertThrows(IllegalStateException.class, () -> FeatureGateSpecs.gate("Z BETA yes"));
        assertThrows(
                IllegalStateException.class, () -> FeatureGateSpecs.gate("Z BETA true frozen"));
    }

    static Stream<Arguments> flags() {
        return Stream.of(
                arguments(
                        "one gate off",
                        "WatchList=false",
                        List.of(false, false, false, true, false, false)),
                arguments(
                        "whitespace and empty entries",
                        " WatchList = false ,,StorageVersionAPI=true,",
                        List.of(true, false, false, true, false, false)),
                arguments(
                        "later entry wins",
                        "WatchList=false,WatchList=true",
                        List.of(false, true, false, true, false, false)),
                arguments(
                        "Go bool spellings",
                        "WatchList=F,StorageVersionAPI=T,KMSv1=1",
                        List.of(true, false, false, true, true, false)),
                arguments(
                        "the kube: component prefix",
                        "kube:WatchList=false, kube:StorageVersionAPI=true",
                        List.of(true, false, false, true, false, false)),
                arguments(
                        "AllBeta moves every beta default, not GA or deprecated gates",
                        "AllBeta=true",
                        List.of(false, true, true, true, false, false)),
                arguments(
                        "AllBeta off",
                        "AllBeta=false",
                        List.of(false, false, false, true, false, false)),
                arguments(
                        "a named gate beats AllBeta",
                        "AllBeta=false,WatchList=true",
                        List.of(false, true, false, true, false, false)),
                arguments(
                        "AllAlpha moves alpha gates only",
                        "AllAlpha=true",
                        List.of(true, true, false, true, false, false)),
                arguments(
                        "a locked gate may be set to its default",
                        "ConsistentListFromCache=true,WatchFromStorageWithoutResourceVersion=false",
                        List.of(false, true, false, true, false, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flags")
    void parsesFlagLikeKubeApiserver(String name, String flag, List<Boolean> expected) {
        assertEquals(expected, states(FeatureGates.parse(flag)));
    }

    static Stream<Arguments> badFlags() {
        return Stream.of(
                arguments("unknown gate", "Foo=true", "unrecognized feature gate: Foo"),
                arguments(
                        "unknown gate after known",
                        "WatchList=true,Bar=true",
                        "unrecognized feature gate: Bar"),
                arguments(
                        "a GA gate set off",
                        "ConsistentListFromCache=false",
                        "cannot set feature gate ConsistentListFromCache to false, feature is locked to true"),
                arguments(
                        "a locked deprecated gate set on",
                        "WatchFromStorageWithoutResourceVersion=true",
                        "cannot set feature gate WatchFromStorageWithoutResourceVersion to true, feature is locked to false"),
                arguments(
                        "several locked gates: Go's aggregate",
                        "RetryGenerateName=false,BtreeWatchCache=false",
                        "[cannot set feature gate RetryGenerateName to false, feature is locked to true, "
                                + "cannot set feature gate BtreeWatchCache to false, feature is locked to true]"),
                arguments(
                        "an unknown gate stops before the locked ones",
                        "RetryGenerateName=false,Foo=true",
                        "unrecognized feature gate: Foo"),
                arguments("missing value", "WatchList", "missing bool value for WatchList"),
                arguments(
                        "non-bool value",
                        "WatchList=yes",
                        "invalid value of WatchList=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"),
                arguments(
                        "empty value",
                        "WatchList=",
                        "invalid value of WatchList=, err: strconv.ParseBool: parsing \"\": invalid syntax"),
                arguments(
                        "values are checked before names",
                        "Foo=true,WatchList=yes",
                        "invalid value of WatchList=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"),
                arguments(
                        "another component", "wardle:Foo=true", "component not registered: wardle"),
                arguments(
                        "kube: and no prefix mixed",
                        "kube:WatchList=true,StorageVersionAPI=true",
                        "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFlags")
    void rejectsBadFlagWithKubeApiserverMessage(String name, String flag, String message) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> FeatureGates.parse(flag));
        assertEquals(message, e.getMessage());
    }

    /** Removed in kube 1.30 (RemoveSelfLink) and 1.33 (the others): no longer gates at all. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "APIListChunking",
                "RemainingItemCount",
                "EfficientWatchResumption",
                "RemoveSelfLink"
            })
    void specsGatesAreRemovedAsInKube135(String gate) {
        for (String value : List.of("true", "false")) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> FeatureGates.parse(gate + "=" + value));
            assertEquals("unrecognized feature gate: " + gate, e.getMessage());
        }
        assertTrue(
                FeatureGateSpecs.REMOVED.stream().anyMatch(r -> r.name().equals(gate)),
                "documented as removed");
    }

    @Test
    void settingAGaOrDeprecatedGateWarnsAsKlogDoes() {
        assertEquals(
                List.of(
                        "Setting GA feature gate ConsistentListFromCache=true. It will be removed in a future release.",
                        "Setting deprecated feature gate KMSv1=true. It will be removed in a future release."),
                FeatureGates.parse(
                                "WatchList=false,ConsistentListFromCache=true,KMSv1=true,AllBeta=true")
                        .warnings());
        assertEquals(List.of(), FeatureGates.defaults().warnings());
    }

    @Test
    void askingForAnUnregisteredGateIsAProgrammingError() {
        assertThrows(
                IllegalArgumentException.class,
                () -> FeatureGates.defaults().enabled("APIListChunking"));
    }

    @Test
    void isAValue() {
        assertEquals(FeatureGates.parse("WatchList=false"), FeatureGates.parse(" WatchList=false"));
        assertTrue(FeatureGates.parse("WatchList=false").explicit().containsKey(WATCH_LIST));
    }
}
