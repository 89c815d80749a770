package io.kubepekko.api.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading policy files: kube's decoding, validation and messages (policy/reader.go, validation.go).
 */
class AuditPolicyReaderTest {

    private static AuditPolicyReader.Result read(String text) {
        return AuditPolicyReader.read(text.getBytes(StandardCharsets.UTF_8));
    }

    private static AuditPolicy loaded(String text) {
        return assertInstanceOf(AuditPolicyReader.Result.Loaded.class, read(text)).policy();
    }

    private static String refused(String text) {
        return assertInstanceOf(AuditPolicyReader.Result.Refused.class, read(text)).message();
    }

    private static final String HEAD = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";

    @Test
    void readsEveryFieldOfAYamlPolicy() {
        AuditPolicy policy =
                loaded(
                        HEAD
                                + "omitStages: [RequestReceived]\n"
                                + "omitManagedFields: true\n"
                                + "rules:\n"
                                + "- level: RequestResponse\n"
                                + "  users: [alice]\n"
                                + "  userGroups: [devs]\n"
                                + "  verbs: [get, list]\n"
                                + "  resources:\n"
                                + "  - group: \"\"\n"
                                + "    resources: [pods, pods/log]\n"
                                + "    resourceNames: [web]\n"
                                + "  namespaces: [\"\", prod]\n"
                                + "  omitStages: [Panic]\n"
                                + "  omitManagedFields: false\n"
                                + "- level: Metadata\n"
                                + "  nonResourceURLs: [/healthz*, /version]\n");
        assertEquals(2, policy.rules().size());
        AuditRule first = policy.rules().get(0);
        assertEquals(AuditLevel.REQUEST_RESPONSE, first.level());
        assertEquals(List.of("alice"), first.users());
        assertEquals(List.of("devs"), first.userGroups());
        assertEquals(List.of("get", "list"), first.verbs());
        assertEquals(
                List.of(new AuditResources("", List.of("pods", "pods/log"), List.of("web"))),
                first.resources());
        assertEquals(List.of("", "prod"), first.namespaces());
        // the policy's stages are joined into each rule's, as kube's evaluator does
        assertEquals(Set.of(AuditStage.PANIC, AuditStage.REQUEST_RECEIVED), first.omitStages());
        assertEquals(Optional.of(false), first.omitManagedFields());
        AuditRule second = policy.rules().get(1);
        assertEquals(List.of("/healthz*", "/version"), second.nonResourceURLs());
        assertEquals(Set.of(AuditStage.REQUEST_RECEIVED), second.omitStages());
        assertEquals(Optional.empty(), second.omitManagedFields());
        assertTrue(policy.omitManagedFields());
    }

    @Test
    void readsAJsonPolicy() {
        AuditPolicy policy =
                loaded(
                        "{\"apiVersion\":\"audit.k8s.io/v1\",\"kind\":\"Policy\","
                                + "\"rules\":[{\"level\":\"Metadata\"}]}");
        assertEquals(List.of(AuditRule.catchAll(AuditLevel.METADATA)), policy.rules());
    }

    @Test
    void ignoresUnknownFieldsWithAWarningAsKubesLenientFallback() {
        var result =
                assertInstanceOf(
                        AuditPolicyReader.Result.Loaded.class,
                        read(HEAD + "rules:\n- level: None\n  colour: red\n"));
        assertEquals(
                List.of(
                        "Audit policy contains errors, falling back to lenient decoding: strict"
                                + " decoding error: unknown field \"rules[0].colour\""),
                result.warnings());
    }

    static Stream<Arguments> badPolicies() {
        return Stream.of(
                Arguments.of(
                        "no rules", HEAD + "rules: []\n", "loaded illegal policy with 0 rules"),
                Arguments.of(
                        "no apiVersion or kind",
                        "rules:\n- level: None\n",
                        "unknown group version field /, Kind= in policy"),
                Arguments.of(
                        "an old version kube no longer reads",
                        "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules:\n- level: None\n",
                        "unknown group version field audit.k8s.io/v1beta1, Kind=Policy in policy"),
                Arguments.of(
                        "level missing",
                        HEAD + "rules:\n- verbs: [get]\n",
                        "rules[0].level: Required value"),
                Arguments.of(
                        "level unknown",
                        HEAD + "rules:\n- level: Everything\n",
                        "rules[0].level: Unsupported value: \"Everything\": supported values:"
                                + " \"None\", \"Metadata\", \"Request\", \"RequestResponse\""),
                Arguments.of(
                        "level in the wrong case",
                        HEAD + "rules:\n- level: metadata\n",
                        "rules[0].level: Unsupported value: \"metadata\": supported values:"
                                + " \"None\", \"Metadata\", \"Request\", \"RequestResponse\""),
                Arguments.of(
                        "non-resource URL without a slash",
                        HEAD + "rules:\n- level: None\n  nonResourceURLs: [healthz]\n",
                        "rules[0].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL"
                                + " rules must begin with a '/' character"),
                Arguments.of(
                        "wildcard inside a non-resource URL",
                        HEAD + "rules:\n- level: None\n  nonResourceURLs: [/api/*/x]\n",
                        "rules[0].nonResourceURLs[0]: Invalid value: \"/api/*/x\": non-resource URL"
                                + " wildcards '*' must be the final character of the rule"),
                Arguments.of(
                        "resources and non-resource URLs together",
                        HEAD
                                + "rules:\n- level: None\n  nonResourceURLs: [/healthz]\n"
                                + "  namespaces: [default]\n",
                        "rules[0].nonResourceURLs: Invalid value: [\"/healthz\"]: rules cannot apply"
                                + " to both regular resources and non-resource URLs"),
                Arguments.of(
                        "group with a version",
                        HEAD
                                + "rules:\n- level: None\n  resources:\n"
                                + "  - group: rbac.authorization.k8s.io/v1\n",
                        "rules[0].resources.group: Invalid value: \"rbac.authorization.k8s.io/v1\":"
                                + " a lowercase RFC 1123 subdomain must consist of lower case"
                                + " alphanumeric characters, '-' or '.', and must start and end with"
                                + " an alphanumeric character (e.g. 'example.com', regex used for"
                                + " validation is"
                                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
                Arguments.of(
                        "resource names without resources",
                        HEAD
                                + "rules:\n- level: None\n  resources:\n"
                                + "  - resourceNames: [web]\n",
                        "rules[0].resources.resourceNames: Invalid value: [\"web\"]: using"
                                + " resourceNames requires at least one resource"),
                Arguments.of(
                        "unknown stage in a rule",
                        HEAD + "rules:\n- level: None\n  omitStages: [Done]\n",
                        "rules[0].omitStages[0]: Invalid value: \"Done\": allowed stages are"
                                + " RequestReceived,ResponseStarted,ResponseComplete,Panic"),
                Arguments.of(
                        "unknown stage in the policy",
                        HEAD + "omitStages: [Done]\nrules:\n- level: None\n",
                        "omitStages[0]: Invalid value: \"Done\": allowed stages are"
                                + " RequestReceived,ResponseStarted,ResponseComplete,Panic"),
                Arguments.of(
                        "several errors at once, in brackets",
                        HEAD + "rules:\n- verbs: [get]\n- level: Bad\n",
                        "[rules[0].level: Required value, rules[1].level: Unsupported value:"
                                + " \"Bad\": supported values: \"None\", \"Metadata\", \"Request\","
                                + " \"RequestResponse\"]"),
                Arguments.of(
                        "a list where a string belongs",
                        HEAD + "rules:\n- level: [None]\n",
                        "failed decoding: json: cannot unmarshal array into Go struct field"
                                + " PolicyRule.rules.level of type string"),
                Arguments.of(
                        "a number among user names",
                        HEAD + "rules:\n- level: None\n  users: [5]\n",
                        "failed decoding: json: cannot unmarshal number into Go struct field"
                                + " PolicyRule.rules.users of type string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPolicies")
    void refusesABadPolicyWithKubesMessage(String name, String policy, String message) {
        assertEquals(message, refused(policy));
    }

    @Test
    void refusesSomethingThatIsNotYamlAsADecodingFailure() {
        assertTrue(refused("rules: [").startsWith("failed decoding: "));
    }
}
