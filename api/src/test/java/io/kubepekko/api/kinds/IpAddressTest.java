package io.kubepekko.api.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.NameRule;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.table.IpAddressPrinter;
import io.kubepekko.api.validation.NameValidation;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * networking.k8s.io IPAddresses: named by an IP address in canonical form, attached to a parent
 * that never changes, printed with their parent.
 */
class IpAddressTest {

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static final String SERVICE_PARENT =
            "{'resource':'services','namespace':'default','name':'web'}";

    private static ObjectNode address(String name, String parentRef) {
        return obj(
                "{'apiVersion':'networking.k8s.io/v1','kind':'IPAddress','metadata':{'name':'"
                        + name
                        + "'},'spec':"
                        + (parentRef == null ? "{}" : "{'parentRef':" + parentRef + "}")
                        + "}");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "10.0.0.1|",
                "2001:db8::1|",
                "::|",
                "::1|",
                "fe80::1:0:0:1|",
                "2001:db8::1:0:0:1|",
                "2001:db8:0:0:1::1|must be in canonical form (\"2001:db8::1:0:0:1\")",
                "10.0.0.256|must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "web|must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "fe80::1%eth0|must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "010.0.0.1|must not have leading 0s",
                "::ffff:10.0.0.1|must not be an IPv4-mapped IPv6 address",
                "2001:DB8::1|must be in canonical form (\"2001:db8::1\")",
                "2001:db8:0:0:0:0:0:1|must be in canonical form (\"2001:db8::1\")",
                "2001:0db8::1|must be in canonical form (\"2001:db8::1\")",
                "2001:db8::0:1|must be in canonical form (\"2001:db8::1\")",
                "::1.2.3.4|must be in canonical form (\"::102:304\")",
                "1:0:0:1:0:0:0:1|must be in canonical form (\"1:0:0:1::1\")"
            })
    void theNameIsAnIpAddressInCanonicalForm(String name, String message) {
        assertEquals(
                message == null ? List.of() : List.of(message),
                NameValidation.name(NameRule.IP_ADDRESS, name, false));
    }

    @Test
    void aGenerateNameIsHeldToTheSameRule() {
        assertEquals(
                List.of("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
                NameValidation.name(NameRule.IP_ADDRESS, "10.0.0.", true));
    }

    @Test
    void anAddressNamesItsParent() {
        assertEquals(
                List.of(FieldError.required("spec.parentRef", "")),
                IpAddressStrategy.INSTANCE.validateCreate(address("10.0.0.1", null)));
        assertEquals(
                List.of(
                        FieldError.required("spec.parentRef.resource", ""),
                        FieldError.required("spec.parentRef.name", "")),
                IpAddressStrategy.INSTANCE.validateCreate(address("10.0.0.1", "{}")));
        assertEquals(
                List.of(),
                IpAddressStrategy.INSTANCE.validateCreate(address("10.0.0.1", SERVICE_PARENT)));
    }

    @Test
    void theParentsPartsAreChecked() {
        List<FieldError> errs =
                IpAddressStrategy.INSTANCE.validateCreate(
                        address(
                                "10.0.0.1",
                                "{'group':'Bad_Group','resource':'a/b','namespace':'..','name':'%x'}"));
        assertEquals(
                List.of(
                        "spec.parentRef.group",
                        "spec.parentRef.resource",
                        "spec.parentRef.name",
                        "spec.parentRef.namespace"),
                errs.stream().map(FieldError::field).toList());
    }

    @Test
    void theParentNeverChanges() {
        ObjectNode old = address("10.0.0.1", SERVICE_PARENT);
        ObjectNode moved =
                address("10.0.0.1", "{'resource':'services','namespace':'default','name':'db'}");
        List<FieldError> errs = IpAddressStrategy.INSTANCE.validateUpdate(moved, old);
        assertEquals(1, errs.size());
        assertEquals("spec.parentRef", errs.get(0).field());
        assertEquals("field is immutable", errs.get(0).detail());
        assertEquals(List.of(), IpAddressStrategy.INSTANCE.validateUpdate(old.deepCopy(), old));
    }

    @Test
    void printsNameAndParentAsKubeDoes() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        ObjectNode a = address("10.0.0.1", SERVICE_PARENT);
        ((ObjectNode) a.get("metadata")).put("creationTimestamp", "2025-12-31T23:00:00Z");
        assertEquals(
                List.of("Name", "ParentRef"),
                IpAddressPrinter.INSTANCE.columns().stream().map(c -> c.name()).toList());
        assertEquals(
                List.of("10.0.0.1", "services/default/web", "60m"),
                IpAddressPrinter.INSTANCE.cells(a, now));
        assertEquals(
                "gateways.gateway.networking.k8s.io/gw",
                IpAddressPrinter.INSTANCE
                        .cells(
                                address(
                                        "10.0.0.2",
                                        "{'group':'gateway.networking.k8s.io','resource':'Gateways','name':'gw'}"),
                                now)
                        .get(1));
        assertEquals(
                "<none>", IpAddressPrinter.INSTANCE.cells(address("10.0.0.3", null), now).get(1));
    }
}
