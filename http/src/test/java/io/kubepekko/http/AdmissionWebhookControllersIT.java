package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.DEADLINE;
import static io.kubepekko.http.AdmissionWebhookFixture.configurations;
import static io.kubepekko.http.AdmissionWebhookFixture.onResources;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The built-in controllers' writes through the webhooks ({@link AdmissionWebhookFixture}): the
 * serviceaccounts controller's create seen and changed by a mutating webhook as the controller's
 * user, and retried while a validating webhook refuses it.
 */
class AdmissionWebhookControllersIT {

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(TestApiServer.perClass());

    private static final TestApiServer api = hooks.api();

    /** The user kube-controller-manager's serviceaccounts controller writes as. */
    private static final String SA_CONTROLLER =
            "system:serviceaccount:kube-system:service-account-controller";

    /** A webhook of case {@code c} on ServiceAccount creates. */
    private static String serviceAccountHook(String c, String name, String path) {
        return onResources(hooks.hook(c, name, path, ""), "serviceaccounts");
    }

    /**
     * A namespace created once case {@code c}'s configuration is in place, under its label: its
     * {@code default} ServiceAccount is the serviceaccounts controller's create, made then.
     */
    private static String laterNamespace(String c) {
        return hooks.labelledNamespace(c + "-later", c);
    }

    @Test
    void aMutatingWebhookSeesAndChangesWhatAControllerCreatesAsTheControllersUser() {
        String c = hooks.newCase();
        hooks.configure(c, true, serviceAccountHook(c, "labels.example.com", "/labels/" + c));
        String ns = laterNamespace(c);

        String sa = "/api/v1/namespaces/" + ns + "/serviceaccounts/default";
        Response created = await().atMost(DEADLINE).until(() -> api.get(sa), r -> r.code() == 200);
        assertEquals("yes", created.json().at("/metadata/labels/mutated").asText(), created.text());
        JsonNode review = hooks.received().get("/labels/" + c).get(0).path("request");
        assertEquals("CREATE", review.path("operation").asText());
        assertEquals(ns, review.path("namespace").asText());
        assertEquals("default", review.at("/object/metadata/name").asText());
        assertEquals(SA_CONTROLLER, review.at("/userInfo/username").asText());
        assertEquals(
                List.of(
                        "system:serviceaccounts",
                        "system:serviceaccounts:kube-system",
                        "system:authenticated"),
                Json.MAPPER.convertValue(review.at("/userInfo/groups"), List.class));
    }

    @Test
    void aControllersCreateAWebhookRefusesIsRetriedUntilAdmitted() {
        String c = hooks.newCase();
        hooks.configure(c, false, serviceAccountHook(c, "deny.example.com", "/deny/" + c));
        String ns = laterNamespace(c);

        // Refused at least twice: the controller tries again, as kube's does on any error but
        // "already exists" and the namespace's termination.
        await().atMost(DEADLINE)
                .until(
                        () ->
                                hooks.received().getOrDefault("/deny/" + c, List.of()).stream()
                                                .filter(
                                                        r ->
                                                                r.at("/request/namespace")
                                                                        .asText()
                                                                        .equals(ns))
                                                .count()
                                        >= 2);
        JsonNode review = hooks.received().get("/deny/" + c).get(0).path("request");
        assertEquals(SA_CONTROLLER, review.at("/userInfo/username").asText());
        String sa = "/api/v1/namespaces/" + ns + "/serviceaccounts/default";
        assertEquals(404, api.get(sa).code());

        assertEquals(200, api.delete(configurations(false) + "/" + c).code());
        await().atMost(DEADLINE).until(() -> api.get(sa).code() == 200);
    }
}
