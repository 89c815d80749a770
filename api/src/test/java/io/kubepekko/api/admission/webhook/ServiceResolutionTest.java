package io.kubepekko.api.admission.webhook;

import static io.kubepekko.api.admission.webhook.WebhookRulesTest.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServiceResolutionTest {

    private static final Webhook.ServiceRef REF =
            new Webhook.ServiceRef("hooks", "webhook", "/validate", 443);

    private static JsonNode service(String spec) {
        return obj("{'metadata':{'name':'webhook','namespace':'hooks'},'spec':" + spec + "}");
    }

    private static JsonNode endpoints(String subsets) {
        return obj("{'metadata':{'name':'webhook','namespace':'hooks'},'subsets':" + subsets + "}");
    }

    private static ServiceResolution.Result resolve(JsonNode service, JsonNode endpoints) {
        return ServiceResolution.resolve(
                REF, Optional.ofNullable(service), Optional.ofNullable(endpoints), n -> n - 1);
    }

    @Test
    void theNameKubeCallsAndVerifies() {
        assertEquals("webhook.hooks.svc", ServiceResolution.serverName(REF));
        assertEquals("https://webhook.hooks.svc:443/validate", ServiceResolution.url(REF));
        assertEquals(
                "https://webhook.hooks.svc:8443/",
                ServiceResolution.url(new Webhook.ServiceRef("hooks", "webhook", "", 8443)));
    }

    @Test
    void aReadyAddressOfTheServicePortsNameWithItsTargetPort() {
        JsonNode svc =
                service(
                        "{'type':'ClusterIP','ports':[{'name':'metrics','port':80},"
                                + "{'name':'https','port':443}]}");
        JsonNode eps =
                endpoints(
                        "[{'addresses':[{'ip':'10.0.0.1'}],'notReadyAddresses':[{'ip':'10.0.0.9'}],"
                                + "'ports':[{'name':'metrics','port':9090},{'name':'https','port':8443}]},"
                                + "{'addresses':[{'ip':'fd00::2'}],'ports':[{'name':'https','port':8443}]}]");
        ServiceResolution.Result r = resolve(svc, eps);
        assertEquals(new ServiceResolution.Resolved("fd00::2", 8443), r);
        assertEquals(
                "https://[fd00::2]:8443/validate",
                ((ServiceResolution.Resolved) r).url("/validate"));
        assertEquals(
                new ServiceResolution.Resolved("10.0.0.1", 8443),
                ServiceResolution.resolve(REF, Optional.of(svc), Optional.of(eps), n -> 0));
    }

    @Test
    void anUnnamedPortMatchesAnUnnamedEndpointPort() {
        assertEquals(
                new ServiceResolution.Resolved("10.0.0.1", 9443),
                resolve(
                        service("{'ports':[{'port':443,'targetPort':9443}]}"),
                        endpoints("[{'addresses':[{'ip':'10.0.0.1'}],'ports':[{'port':9443}]}]")));
    }

    @Test
    void kubesErrors() {
        assertEquals(
                new ServiceResolution.Unresolved("service \"webhook\" not found"),
                resolve(null, null));
        assertEquals(
                new ServiceResolution.Unresolved("unsupported service type \"ExternalName\""),
                resolve(service("{'type':'ExternalName','externalName':'x.example.com'}"), null));
        assertEquals(
                new ServiceResolution.Unresolved(
                        "no service port 443 found for service \"webhook\""),
                resolve(service("{'ports':[{'port':80}]}"), null));
        String none = "no endpoints available for service \"webhook\"";
        JsonNode svc = service("{'ports':[{'name':'https','port':443}]}");
        assertEquals(new ServiceResolution.Unresolved(none), resolve(svc, null));
        assertEquals(
                new ServiceResolution.Unresolved(none),
                resolve(
                        svc,
                        endpoints(
                                "[{'notReadyAddresses':[{'ip':'10.0.0.1'}],"
                                        + "'ports':[{'name':'https','port':8443}]}]")));
        assertEquals(
                new ServiceResolution.Unresolved(none),
                resolve(
                        svc,
                        endpoints(
                                "[{'addresses':[{'ip':'10.0.0.1'}],'ports':[{'name':'web','port':80}]}]")));
    }
}
