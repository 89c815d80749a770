package io.kubepekko.api.watch;

import static io.kubepekko.api.watch.FeatureGates.API_LIST_CHUNKING;
import static io.kubepekko.api.watch.FeatureGates.EFFICIENT_WATCH_RESUMPTION;
import static io.kubepekko.api.watch.FeatureGates.REMAINING_ITEM_COUNT;
import static io.kubepekko.api.watch.FeatureGates.REMOVE_SELF_LINK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FeatureGatesTest {

    private static final List<String> ALL =
            List.of(
                    API_LIST_CHUNKING,
                    EFFICIENT_WATCH_RESUMPTION,
                    REMAINING_ITEM_COUNT,
                    REMOVE_SELF_LINK);

    private static List<Boolean> states(FeatureGates gates) {
        return ALL.stream().map(gates::enabled).toList();
    }

    @Test
    void everyBetaGateIsOnByDefault() {
        assertEquals(List.of(true, true, true, true), states(FeatureGates.defaults()));
        assertEquals(FeatureGates.defaults(), FeatureGates.parse(""));
    }

    static Stream<Arguments> flags() {
        return Stream.of(
                arguments(
                        "one gate off", "APIListChunking=false", List.of(false, true, true, true)),
                arguments(
                        "whitespace and empty entries",
                        " APIListChunking = false ,,RemoveSelfLink=true,",
                        List.of(false, true, true, true)),
                arguments(
                        "later entry wins",
                        "RemainingItemCount=false,RemainingItemCount=true",
                        List.of(true, true, true, true)),
                arguments(
                        "Go bool spellings",
                        "APIListChunking=F,EfficientWatchResumption=0,"
                                + "RemainingItemCount=FALSE,RemoveSelfLink=t",
                        List.of(false, false, false, true)),
                arguments(
                        "AllBeta moves every beta default",
                        "AllBeta=false",
                        List.of(false, false, false, false)),
                arguments(
                        "a named gate beats AllBeta",
                        "AllBeta=false,RemoveSelfLink=true",
                        List.of(false, false, false, true)),
                arguments(
                        "AllAlpha leaves beta gates alone",
                        "AllAlpha=true,APIListChunking=0",
                        List.of(false, true, true, true)));
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
                        "APIListChunking=true,WatchList=true",
                        "unrecognized feature gate: WatchList"),
                arguments(
                        "missing value",
                        "APIListChunking",
                        "missing bool value for APIListChunking"),
                arguments(
                        "non-bool value",
                        "APIListChunking=yes",
                        "invalid value of APIListChunking=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"),
                arguments(
                        "empty value",
                        "APIListChunking=",
                        "invalid value of APIListChunking=, err: strconv.ParseBool: parsing \"\": invalid syntax"),
                arguments(
                        "values are checked before names",
                        "Foo=true,APIListChunking=yes",
                        "invalid value of APIListChunking=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFlags")
    void rejectsBadFlagWithKubeApiserverMessage(String name, String flag, String message) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> FeatureGates.parse(flag));
        assertEquals(message, e.getMessage());
    }

    @Test
    void askingForAnUnregisteredGateIsAProgrammingError() {
        assertThrows(
                IllegalArgumentException.class, () -> FeatureGates.defaults().enabled("WatchList"));
    }

    @Test
    void isAValue() {
        assertEquals(
                FeatureGates.parse("APIListChunking=false"),
                FeatureGates.parse(" APIListChunking=false"));
        assertTrue(
                FeatureGates.parse("APIListChunking=false")
                        .explicit()
                        .containsKey(API_LIST_CHUNKING));
    }
}
