package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.configMap;
import static io.kubepekko.http.AdmissionWebhookFixture.configMaps;
import static io.kubepekko.http.AdmissionWebhookFixture.configuration;
import static io.kubepekko.http.AdmissionWebhookFixture.configurations;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A webhook's {@code matchConditions} through the API ({@link AdmissionWebhookFixture}): which
 * calls they skip, an evaluation error under each failure policy, kube's CEL libraries, and the
 * configurations refused for conditions that do not compile.
 */
class AdmissionWebhookMatchConditionsIT {

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(TestApiServer.perClass());

    private static final TestApiServer api = hooks.api();

    /** A {@code matchConditions} field of the given conditions (name, expression pairs). */
    private static String conditions(String... nameAndExpression) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nameAndExpression.length; i += 2) {
            out.add(
                    "{'name':'"
                            + nameAndExpression[i]
                            + "','expression':\""
                            // json() turns ' into ", so CEL's strings are written "…", escaped.
                            + nameAndExpression[i + 1].replace("\"", "\\\"")
                            + "\"}");
        }
        return "'matchConditions':[" + String.join(",", out) + "]";
    }

    @Test
    void aFalseMatchConditionSkipsTheWebhookATrueOneCallsIt() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                hooks.hook(
                        c,
                        "deny.example.com",
                        "/deny/" + c,
                        conditions(
                                "not-free",
                                "object.metadata.name != \"free\"",
                                "admin",
                                "request.userInfo.username == \"kubernetes-admin\""
                                        + " && oldObject == null")));
        int calls = hooks.received().getOrDefault("/deny/" + c, List.of()).size();
        assertEquals(201, api.post(configMaps(c), configMap("free", "{}")).code());
        assertEquals(calls, hooks.received().getOrDefault("/deny/" + c, List.of()).size());
        Response r = api.post(configMaps(c), configMap("held", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(calls + 1, hooks.received().get("/deny/" + c).size());
    }

    @Test
    void aMatchConditionThatFailsToEvaluateFailsTheWriteOnlyWhenThePolicyIsFail() {
        String failing = hooks.newCase();
        // The probe's own create must pass (the condition skips the webhook for it): a failed
        // condition stops every validating webhook.
        String broken = "object.metadata.name != \"probe\" && object.data.missing == \"x\"";
        hooks.configure(
                failing,
                false,
                hooks.hook(
                        failing,
                        "deny.example.com",
                        "/deny/" + failing,
                        conditions("broken", broken)));
        Response r = api.post(configMaps(failing), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals("Forbidden", r.json().path("reason").asText());
        assertEquals(
                "configmaps \"cm\" is forbidden: expression '"
                        + broken
                        + "' resulted in error: key 'missing' is not present in map.",
                r.json().path("message").asText());
        assertFalse(hooks.received().containsKey("/deny/" + failing));

        String ignored = hooks.newCase();
        hooks.configure(
                ignored,
                false,
                hooks.hook(
                        ignored,
                        "deny.example.com",
                        "/deny/" + ignored,
                        "'failurePolicy':'Ignore',"
                                + conditions("broken", "object.data.missing == \"x\"")));
        assertEquals(201, api.post(configMaps(ignored), configMap("cm", "{}")).code());
        assertFalse(hooks.received().containsKey("/deny/" + ignored));
    }

    /**
     * kube decides which validating webhooks apply before calling any: a condition failing under
     * Fail refuses the write, and the webhooks that did apply are not called.
     */
    @Test
    void aValidatingWebhooksFailedConditionKeepsEveryValidatingWebhookFromBeingCalled() {
        String c = hooks.newCase();
        // The probe's own create must pass: the condition skips the webhook for it and fails
        // for the others.
        String broken = "object.metadata.name != \"probe\" && object.data.missing == \"x\"";
        hooks.configure(
                c,
                false,
                hooks.hook(c, "allow.example.com", "/allow/" + c, ""),
                hooks.hook(c, "deny.example.com", "/deny/" + c, conditions("broken", broken)));
        // The probe's creates went through the allowing webhook.
        int allowed = hooks.received().getOrDefault("/allow/" + c, List.of()).size();
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "configmaps \"cm\" is forbidden: expression '"
                        + broken
                        + "' resulted in error: key 'missing' is not present in map.",
                r.json().path("message").asText());
        assertEquals(
                allowed,
                hooks.received().get("/allow/" + c).size(),
                "the other validating webhook was called");
        assertFalse(hooks.received().containsKey("/deny/" + c));
    }

    /** kube's CEL libraries in a real condition: quantity. */
    @Test
    void aMatchConditionCanUseKubesQuantityLibrary() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                hooks.hook(
                        c,
                        "deny.example.com",
                        "/deny/" + c,
                        conditions(
                                "big",
                                "has(object.data.size)"
                                        + " && quantity(object.data.size)"
                                        + ".isGreaterThan(quantity(\"1Gi\"))")));
        assertEquals(201, api.post(configMaps(c), sized("small", "512Mi")).code());
        assertFalse(hooks.received().containsKey("/deny/" + c));
        Response r = api.post(configMaps(c), sized("large", "2Gi"));
        assertEquals(403, r.code(), r.text());
        assertEquals(1, hooks.received().get("/deny/" + c).size());
    }

    private static String sized(String name, String size) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':{'size':'"
                        + size
                        + "'}}");
    }

    @Test
    void aMatchConditionThatDoesNotCompileIsInvalid() {
        String c = hooks.newCase();
        Response r =
                api.post(
                        configurations(false),
                        configuration(
                                false,
                                c,
                                hooks.hook(
                                        c,
                                        "deny.example.com",
                                        "/deny",
                                        conditions("sum", "1 + 1", "bad", "nope == 1"))));
        assertEquals(422, r.code(), r.text());
        JsonNode causes = r.json().at("/details/causes");
        assertEquals(2, causes.size(), r.text());
        assertEquals(
                "webhooks[0].matchConditions[0].expression", causes.get(0).path("field").asText());
        assertEquals(
                "Invalid value: \"1 + 1\": must evaluate to bool but got int",
                causes.get(0).path("message").asText());
        assertEquals(
                "webhooks[0].matchConditions[1].expression", causes.get(1).path("field").asText());
        assertTrue(
                causes.get(1)
                        .path("message")
                        .asText()
                        .startsWith(
                                "Invalid value: \"nope == 1\": compilation failed: ERROR:"
                                        + " <input>:1:1: undeclared reference to 'nope'"),
                r.text());
    }

    /**
     * kube's compile-time literal checks (cel-go's validators in kube's base environment): a
     * duration or regex literal that would fail and a mixed-type list refuse the configuration with
     * the compiler's errors at the literal.
     */
    @Test
    void aMatchConditionWithABadLiteralIsInvalidAsKubesCompilerSays() {
        String c = hooks.newCase();
        String duration = "duration(\"1x\") > duration(\"0s\")";
        String regex = "object.metadata.name.matches(\"[\")";
        String mixed = "request.operation in [\"CREATE\", 1]";
        Response r =
                api.post(
                        configurations(false),
                        configuration(
                                false,
                                c,
                                hooks.hook(
                                        c,
                                        "deny.example.com",
                                        "/deny",
                                        conditions(
                                                "duration",
                                                duration,
                                                "regex",
                                                regex,
                                                "mixed",
                                                mixed))));
        assertEquals(422, r.code(), r.text());
        JsonNode causes = r.json().at("/details/causes");
        assertEquals(3, causes.size(), r.text());
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    "webhooks[0].matchConditions[" + i + "].expression",
                    causes.get(i).path("field").asText());
        }
        assertEquals(
                "Invalid value: \"duration(\\\"1x\\\") > duration(\\\"0s\\\")\":"
                        + " compilation failed: ERROR: <input>:1:10: invalid duration argument\n"
                        + " | duration(\"1x\") > duration(\"0s\")\n"
                        + " | .........^",
                causes.get(0).path("message").asText());
        assertTrue(
                causes.get(1)
                        .path("message")
                        .asText()
                        .endsWith(
                                ": compilation failed: ERROR: <input>:1:30: invalid matches"
                                        + " argument\n | "
                                        + regex
                                        + "\n | "
                                        + ".".repeat(29)
                                        + "^"),
                r.text());
        assertTrue(
                causes.get(2)
                        .path("message")
                        .asText()
                        .endsWith(
                                ": compilation failed: ERROR: <input>:1:33: expected type"
                                        + " 'string' but found 'int'\n | "
                                        + mixed
                                        + "\n | "
                                        + ".".repeat(32)
                                        + "^"),
                r.text());
        assertEquals(404, api.get(configurations(false) + "/" + c).code());
    }
}
