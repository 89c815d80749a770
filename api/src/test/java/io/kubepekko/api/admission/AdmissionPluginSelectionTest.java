package io.kubepekko.api.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionPluginSelectionTest {

    @Test
    void theDefaultsAreKubesDefaultPluginsThisServerHasWithNodeRestriction() throws Exception {
        assertEquals(
                List.of(
                        "NamespaceLifecycle",
                        "LimitRanger",
                        "ServiceAccount",
                        "NodeRestriction",
                        "Priority",
                        "DefaultTolerationSeconds",
                        "DefaultStorageClass",
                        "MutatingAdmissionWebhook",
                        "ValidatingAdmissionWebhook",
                        "ResourceQuota"),
                AdmissionPluginSelection.DEFAULT.names());
        assertEquals(
                AdmissionPluginSelection.DEFAULT,
                AdmissionPluginSelection.of(List.of(), List.of()));
    }

    @Test
    void disablingRemovesADefaultPluginAndKubesPluginsNotServedMayBeDisabled() throws Exception {
        AdmissionPluginSelection s =
                AdmissionPluginSelection.of(
                        List.of(), List.of("ResourceQuota", "LimitRanger", "PodSecurity"));
        assertFalse(s.enabled("ResourceQuota"));
        assertFalse(s.enabled("LimitRanger"));
        assertTrue(s.enabled("ServiceAccount"));
        assertFalse(s.names().contains("PodSecurity"));
    }

    @Test
    void enablingADefaultPluginIsAllowedAndTheOrderIsKubesWhateverTheFlagsOrder() throws Exception {
        AdmissionPluginSelection s =
                AdmissionPluginSelection.of(
                        List.of("ResourceQuota", "LimitRanger"), List.of("ServiceAccount"));
        assertEquals(
                List.of("NamespaceLifecycle", "LimitRanger", "NodeRestriction", "Priority"),
                s.names().subList(0, 4));
        assertFalse(s.enabled("ServiceAccount"));
    }

    @Test
    void unknownNamesAreRefusedInKubesWords() {
        assertEquals(
                "enable-admission-plugins plugin \"Foo\" is unknown",
                assertThrows(
                                AdmissionPluginSelection.Invalid.class,
                                () -> AdmissionPluginSelection.of(List.of("Foo"), List.of()))
                        .getMessage());
        assertEquals(
                "[enable-admission-plugins plugin \"Foo\" is unknown, disable-admission-plugins"
                        + " plugin \"Bar\" is unknown]",
                assertThrows(
                                AdmissionPluginSelection.Invalid.class,
                                () -> AdmissionPluginSelection.of(List.of("Foo"), List.of("Bar")))
                        .getMessage());
        // names are case-sensitive, as kube's
        assertThrows(
                AdmissionPluginSelection.Invalid.class,
                () -> AdmissionPluginSelection.of(List.of(), List.of("resourcequota")));
    }

    @Test
    void aPluginInBothListsIsRefusedInKubesWords() {
        assertEquals(
                "[LimitRanger ResourceQuota] in enable-admission-plugins and"
                        + " disable-admission-plugins overlapped",
                assertThrows(
                                AdmissionPluginSelection.Invalid.class,
                                () ->
                                        AdmissionPluginSelection.of(
                                                List.of("ResourceQuota", "LimitRanger"),
                                                List.of("LimitRanger", "ResourceQuota")))
                        .getMessage());
    }

    @Test
    void enablingAKubePluginThisServerDoesNotHaveIsRefused() {
        assertEquals(
                "enable-admission-plugins plugin \"AlwaysPullImages\" is not served by this server",
                assertThrows(
                                AdmissionPluginSelection.Invalid.class,
                                () ->
                                        AdmissionPluginSelection.of(
                                                List.of("AlwaysPullImages"), List.of()))
                        .getMessage());
    }

    @Test
    void namespaceLifecycleCannotBeDisabled() {
        assertEquals(
                "disable-admission-plugins plugin \"NamespaceLifecycle\" cannot be disabled on"
                        + " this server",
                assertThrows(
                                AdmissionPluginSelection.Invalid.class,
                                () ->
                                        AdmissionPluginSelection.of(
                                                List.of(), List.of("NamespaceLifecycle")))
                        .getMessage());
    }
}
