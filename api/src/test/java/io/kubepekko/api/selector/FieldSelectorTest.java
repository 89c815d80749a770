package io.kubepekko.api.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FieldSelectorTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final ResourceType WIDGETS =
            ResourceType.builder("example.com", "v1", "Widget", "widgets")
                    .selectableFields("spec.color", "spec.size", "spec.enabled")
                    .build();
    private static final ResourceType GADGETS =
            ResourceType.builder("example.com", "v1", "Gadget", "gadgets").clusterScoped().build();

    private static ResourceType type(String qualifiedResource) {
        return REGISTRY.find(GroupResource.parse(qualifiedResource)).orElseThrow();
    }

    private static ObjectNode object(String json) {
        return Json.parseTrusted(json.getBytes(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> canonicalForms() {
        return Stream.of(
                arguments("empty selects everything", "", ""),
                arguments("equals", "metadata.name=foo", "metadata.name=foo"),
                arguments(
                        "double equals prints as equals",
                        "metadata.name==foo",
                        "metadata.name=foo"),
                arguments("not equals", "metadata.name!=foo", "metadata.name!=foo"),
                arguments("terms sorted by text", "b=1,a=2", "a=2,b=1"),
                arguments("empty terms skipped", "a=b,,c=d,", "a=b,c=d"),
                arguments("empty value", "a=", "a="),
                arguments("escaped comma", "a=x\\,y", "a=x\\,y"),
                arguments("escaped equals", "a=x\\=y", "a=x\\=y"),
                arguments("escaped backslash", "a=x\\\\y", "a=x\\\\y"),
                arguments("bang needs no escape in values", "a=b!", "a=b!"),
                arguments("whitespace is data", "a = b", "a = b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("canonicalForms")
    void parsesToKubernetesStringForm(String name, String input, String canonical) {
        assertEquals(canonical, FieldSelector.parse(input).toString());
    }

    static Stream<Arguments> unescapedValues() {
        return Stream.of(
                arguments("plain", "a=b", "b"),
                arguments("comma", "a=x\\,y", "x,y"),
                arguments("equals", "a=x\\=y", "x=y"),
                arguments("backslash", "a=x\\\\y", "x\\y"),
                arguments("operator characters after the first operator", "a==b!", "b!"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unescapedValues")
    void unescapesValues(String name, String input, String value) {
        assertEquals(value, FieldSelector.parse(input).terms().get(0).value());
    }

    static Stream<Arguments> invalidSelectors() {
        return Stream.of(
                arguments(
                        "term without operator",
                        "foo",
                        "invalid selector: 'foo'; can't understand 'foo'"),
                arguments(
                        "bad term after a good one",
                        "a=b,foo",
                        "invalid selector: 'a=b,foo'; can't understand 'foo'"),
                arguments(
                        "unknown escape",
                        "a=b\\x",
                        "invalid field selector: invalid escape sequence: \\x"),
                arguments(
                        "escaped bang is not an escape",
                        "a=b\\!",
                        "invalid field selector: invalid escape sequence: \\!"),
                arguments(
                        "trailing backslash",
                        "a=b\\",
                        "invalid field selector: invalid escape sequence: \\"),
                arguments(
                        "unescaped equals reported as rune number",
                        "a=b=c",
                        "invalid field selector: unescaped character in value: 61"),
                arguments(
                        "not equals then equals",
                        "a!=b=c",
                        "invalid field selector: unescaped character in value: 61"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSelectors")
    void rejectsUnparsableSelector(String name, String input, String message) {
        ApiException e = assertThrows(ApiException.class, () -> FieldSelector.parse(input));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals(message, e.status().message());
    }

    static Stream<Arguments> supportedLabels() {
        return Stream.of(
                arguments("pods by node", "pods", "spec.nodeName=n1"),
                arguments("pods by namespace", "pods", "metadata.namespace=default"),
                arguments(
                        "pods by phase and host network",
                        "pods",
                        "status.phase=Running,spec.hostNetwork=true"),
                arguments("configmaps by name", "configmaps", "metadata.name=cm1"),
                arguments("configmaps by namespace", "configmaps", "metadata.namespace!=default"),
                arguments(
                        "cluster-scoped built-in with default conversion keeps namespace",
                        "storageclasses.storage.k8s.io",
                        "metadata.namespace="),
                arguments("secrets by type", "secrets", "type=kubernetes.io/tls"),
                arguments(
                        "events by involved object",
                        "events",
                        "involvedObject.kind=Pod,involvedObject.name=p"),
                arguments("events by source", "events", "source=kubelet"),
                arguments("nodes by unschedulable", "nodes", "spec.unschedulable=true"),
                arguments("namespaces by phase", "namespaces", "status.phase=Active"),
                arguments("jobs by successful", "jobs.batch", "status.successful=1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("supportedLabels")
    void acceptsLabelsTheKindSupports(String name, String resource, String selector) {
        FieldSelector bound = FieldSelector.parse(selector).forType(type(resource));
        assertEquals(FieldSelector.parse(selector).toString(), bound.toString());
    }

    static Stream<Arguments> unsupportedLabels() {
        return Stream.of(
                arguments(
                        "pods reject unknown field",
                        "pods",
                        "foo=bar",
                        "field label not supported: foo"),
                arguments(
                        "first unsupported in sorted order",
                        "pods",
                        "zzz=1,aaa=2",
                        "field label not supported: aaa"),
                arguments(
                        "configmaps use the default conversion message",
                        "configmaps",
                        "foo.bar=baz",
                        "\"foo.bar\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""),
                arguments(
                        "ingresses use the default conversion message",
                        "ingresses.networking.k8s.io",
                        "spec.x=1",
                        "\"spec.x\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""),
                arguments(
                        "nodes have no namespace label",
                        "nodes",
                        "metadata.namespace=x",
                        "field label not supported: metadata.namespace"),
                arguments(
                        "namespaces have no namespace label",
                        "namespaces",
                        "metadata.namespace=x",
                        "field label not supported: metadata.namespace"),
                arguments("empty label", "pods", "=x", "field label not supported: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsupportedLabels")
    void rejectsLabelsTheKindDoesNotSupport(
            String name, String resource, String selector, String message) {
        FieldSelector parsed = FieldSelector.parse(selector);
        ApiException e = assertThrows(ApiException.class, () -> parsed.forType(type(resource)));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals(message, e.status().message());
    }

    @Test
    void customResourcesAcceptTheirSelectableFields() {
        assertEquals(
                "spec.color=red",
                FieldSelector.parse("spec.color=red").forType(WIDGETS).toString());
        assertEquals(
                "metadata.namespace=ns",
                FieldSelector.parse("metadata.namespace=ns").forType(WIDGETS).toString());
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> FieldSelector.parse("spec.shape=round").forType(WIDGETS));
        assertEquals("field label not supported: spec.shape", e.status().message());
    }

    @Test
    void clusterScopedCustomResourcesRejectNamespaceLabel() {
        assertEquals(
                "metadata.name=g",
                FieldSelector.parse("metadata.name=g").forType(GADGETS).toString());
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> FieldSelector.parse("metadata.namespace=x").forType(GADGETS));
        assertEquals("field label not supported: metadata.namespace", e.status().message());
    }

    @Test
    void podSpecHostIsAnAliasForNodeName() {
        FieldSelector s = FieldSelector.parse("spec.host=n1").forType(type("pods"));
        assertEquals("spec.nodeName=n1", s.toString());
        assertTrue(s.matches(object("{\"spec\":{\"nodeName\":\"n1\"}}")));
    }

    static Stream<Arguments> matching() {
        String pod =
                "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"},"
                        + "\"spec\":{\"nodeName\":\"n1\",\"restartPolicy\":\"Always\"},\"status\":{\"phase\":\"Running\"}}";
        return Stream.of(
                arguments("name equals", "pods", "metadata.name=p", pod, true),
                arguments("name not equals", "pods", "metadata.name!=p", pod, false),
                arguments("namespace", "pods", "metadata.namespace=default", pod, true),
                arguments(
                        "all terms must hold",
                        "pods",
                        "spec.nodeName=n1,status.phase=Pending",
                        pod,
                        false),
                arguments(
                        "conjunction", "pods", "spec.nodeName=n1,status.phase=Running", pod, true),
                arguments("absent field reads empty", "pods", "spec.schedulerName=", pod, true),
                arguments(
                        "absent field is not a value", "pods", "spec.schedulerName!=", pod, false),
                arguments(
                        "absent host network reads false",
                        "pods",
                        "spec.hostNetwork=false",
                        pod,
                        true),
                arguments(
                        "host network true",
                        "pods",
                        "spec.hostNetwork=true",
                        "{\"spec\":{\"hostNetwork\":true}}",
                        true),
                arguments(
                        "absent unschedulable reads false",
                        "nodes",
                        "spec.unschedulable=false",
                        "{\"spec\":{}}",
                        true),
                arguments(
                        "unschedulable true",
                        "nodes",
                        "spec.unschedulable=true",
                        "{\"spec\":{\"unschedulable\":true}}",
                        true),
                arguments(
                        "event source is the component",
                        "events",
                        "source=kubelet",
                        "{\"source\":{\"component\":\"kubelet\",\"host\":\"n1\"}}",
                        true),
                arguments(
                        "event source without a component is the reporting controller",
                        "events",
                        "source=example.com/ctl",
                        "{\"source\":{},\"reportingComponent\":\"example.com/ctl\"}",
                        true),
                arguments(
                        "event source component wins over the reporting controller",
                        "events",
                        "source=ctl",
                        "{\"source\":{\"component\":\"kubelet\"},\"reportingComponent\":\"ctl\"}",
                        false),
                arguments(
                        "event reporting component",
                        "events",
                        "reportingComponent=ctrl",
                        "{\"reportingComponent\":\"ctrl\"}",
                        true),
                arguments(
                        "job successful reads status.succeeded",
                        "jobs.batch",
                        "status.successful=3",
                        "{\"status\":{\"succeeded\":3}}",
                        true),
                arguments(
                        "job successful absent reads zero",
                        "jobs.batch",
                        "status.successful=0",
                        "{\"status\":{}}",
                        true),
                arguments("secret type", "secrets", "type=Opaque", "{\"type\":\"Opaque\"}", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matching")
    void matchesObjectsByTheirSelectableFields(
            String name, String resource, String selector, String json, boolean expected) {
        assertEquals(
                expected,
                FieldSelector.parse(selector).forType(type(resource)).matches(object(json)));
    }

    @Test
    void readsNumbersAndBooleansOfCustomResourcesAsText() {
        ObjectNode widget = object("{\"spec\":{\"color\":\"red\",\"size\":3,\"enabled\":false}}");
        assertTrue(
                FieldSelector.parse("spec.size=3,spec.enabled=false,spec.color=red")
                        .forType(WIDGETS)
                        .matches(widget));
        assertFalse(FieldSelector.parse("spec.size=4").forType(WIDGETS).matches(widget));
    }

    @Test
    void unboundSelectorReadsPlainPathsWithoutKindDefaults() {
        ObjectNode pod = object("{\"spec\":{}}");
        assertFalse(FieldSelector.parse("spec.hostNetwork=false").matches(pod));
        assertTrue(
                FieldSelector.parse("spec.hostNetwork=false").forType(type("pods")).matches(pod));
    }

    @Test
    void emptySelectorMatchesEverything() {
        FieldSelector s = FieldSelector.parse("");
        assertTrue(s.isEmpty());
        assertTrue(s.matches(object("{}")));
        assertFalse(FieldSelector.parse("a=b").isEmpty());
    }

    static Stream<Arguments> exactNames() {
        return Stream.of(
                arguments("single name", "metadata.name=foo", Optional.of("foo")),
                arguments("double equals", "metadata.name==foo", Optional.of("foo")),
                arguments(
                        "name with other terms",
                        "spec.nodeName=n,metadata.name=foo",
                        Optional.of("foo")),
                arguments("negated name", "metadata.name!=foo", Optional.empty()),
                arguments("namespace only", "metadata.namespace=foo", Optional.empty()),
                arguments("empty", "", Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exactNames")
    void reportsTheNameASelectorPins(String name, String selector, Optional<String> expected) {
        assertEquals(expected, FieldSelector.parse(selector).exactName());
    }

    @Test
    void escapeIsTheInverseOfParsing() {
        String value = "a,b=c\\d";
        FieldSelector s = FieldSelector.parse("metadata.name=" + FieldSelector.escape(value));
        assertEquals(Optional.of(value), s.exactName());
    }
}
