package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.admission.AdmissionPluginSelection;
import io.kubepekko.http.server.AdmissionSettings;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --disable-admission-plugins}: a server started without the ServiceAccount and Priority
 * plugins stores a pod as it came, where the default plugins would have given it the {@code
 * default} account, its token volume and its priority class's value (ServiceAccountAdmissionIT and
 * DefaultingAdmissionIT show those on a default server).
 */
class AdmissionPluginFlagsIT {

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s ->
                            s.withAdmission(
                                    new AdmissionSettings(
                                            selection(List.of("ServiceAccount", "Priority")),
                                            AdmissionSettings.DEFAULT.tolerations())));

    private static AdmissionPluginSelection selection(List<String> disabled) {
        try {
            return AdmissionPluginSelection.of(List.of(), disabled);
        } catch (AdmissionPluginSelection.Invalid e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void aPodIsStoredWithoutWhatTheDisabledPluginsWouldHaveSet() {
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'plain'}}"));
        JsonNode spec =
                api.create(
                                "/api/v1/namespaces/plain/pods",
                                json(
                                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},"
                                                + "'spec':{'priorityClassName':"
                                                + "'system-cluster-critical',"
                                                + "'containers':[{'name':'app','image':'nginx'}]}}"))
                        .path("spec");
        assertTrue(spec.path("serviceAccountName").isMissingNode(), spec.toString());
        assertTrue(spec.path("volumes").isMissingNode(), spec.toString());
        assertTrue(spec.path("priority").isMissingNode(), spec.toString());
        assertEquals("system-cluster-critical", spec.path("priorityClassName").asText());
    }
}
