package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl v1.35's {@code explain}, which reads nothing but the {@code /openapi/v3}
 * documents: the kind's component (found by its {@code x-kubernetes-group-version-kind} list), then
 * each field path through {@code $ref}s, array items and map values, printing types, descriptions
 * and required marks from the schemas.
 */
class KubectlExplainE2E {
    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    @Test
    void explainsANestedListFieldWithItsTypeDescriptionAndFields() {
        List<String> lines =
                ok("explain", "deployment.spec.template.spec.containers").stdout().lines().toList();

        assertEquals("GROUP:      apps", lines.get(0));
        assertEquals("KIND:       Deployment", lines.get(1));
        assertEquals("VERSION:    v1", lines.get(2));
        assertTrue(lines.contains("FIELD: containers <[]Container>"), String.join("\n", lines));
        assertTrue(
                lines.contains(
                        "    List of containers belonging to the pod. Containers cannot currently be"),
                String.join("\n", lines));
        assertTrue(lines.contains("FIELDS:"), String.join("\n", lines));
        assertTrue(lines.contains("  image\t<string>"), String.join("\n", lines));
        assertTrue(lines.contains("  name\t<string> -required-"), String.join("\n", lines));
        assertTrue(lines.contains("  ports\t<[]ContainerPort>"), String.join("\n", lines));
        assertTrue(lines.contains("  resources\t<ResourceRequirements>"), String.join("\n", lines));
    }

    @Test
    void explainsAKindWithItsTopLevelFields() {
        List<String> lines = ok("explain", "pods").stdout().lines().toList();

        assertEquals("KIND:       Pod", lines.get(0), "the core group prints no GROUP line");
        assertEquals("VERSION:    v1", lines.get(1));
        assertTrue(
                lines.contains(
                        "    Pod is a collection of containers that can run on a host. This resource is"),
                String.join("\n", lines));
        for (String field :
                List.of(
                        "  apiVersion\t<string>",
                        "  kind\t<string>",
                        "  metadata\t<ObjectMeta>",
                        "  spec\t<PodSpec>",
                        "  status\t<PodStatus>")) {
            assertTrue(lines.contains(field), field + " in\n" + String.join("\n", lines));
        }
    }

    @Test
    void explainsServicePortsByShortNameWithIntOrStringAndRequiredPort() {
        List<String> lines = ok("explain", "svc.spec.ports").stdout().lines().toList();

        assertEquals("KIND:       Service", lines.get(0));
        assertTrue(lines.contains("FIELD: ports <[]ServicePort>"), String.join("\n", lines));
        assertTrue(lines.contains("  port\t<integer> -required-"), String.join("\n", lines));
        assertTrue(lines.contains("  targetPort\t<IntOrString>"), String.join("\n", lines));
        assertTrue(lines.contains("  protocol\t<string>"), String.join("\n", lines));
    }

    @Test
    void explainsAnEnumFieldWithItsValuesUnderEnum() {
        List<String> lines =
                ok("explain", "pod.spec.containers.imagePullPolicy").stdout().lines().toList();

        assertEquals("KIND:       Pod", lines.get(0));
        int field = lines.indexOf("FIELD: imagePullPolicy <string>");
        assertTrue(field > 0, String.join("\n", lines));
        assertEquals(
                List.of("ENUM:", "    Always", "    IfNotPresent", "    Never", "", "DESCRIPTION:"),
                lines.subList(field + 1, field + 7),
                String.join("\n", lines));
    }

    @Test
    void explainsAKindRecursivelyDownToMetadataFields() {
        List<String> lines = ok("explain", "configmap", "--recursive").stdout().lines().toList();

        assertEquals("KIND:       ConfigMap", lines.get(0));
        for (String field :
                List.of(
                        "  data\t<map[string]string>",
                        "  immutable\t<boolean>",
                        "  metadata\t<ObjectMeta>",
                        "    labels\t<map[string]string>",
                        "    ownerReferences\t<[]OwnerReference>",
                        "      uid\t<string> -required-",
                        "    managedFields\t<[]ManagedFieldsEntry>")) {
            assertTrue(lines.contains(field), field + " in\n" + String.join("\n", lines));
        }
    }

    @Test
    void explainsAMapOfQuantitiesAndAnUnknownFieldFails() {
        ProcessResult limits =
                ok("explain", "deployment.spec.template.spec.containers.resources.limits");
        assertTrue(
                limits.stdout().lines().anyMatch("FIELD: limits <map[string]Quantity>"::equals),
                limits.describe());

        ProcessResult unknown = kubectl().run("explain", "deployment.spec.nonsense");
        assertEquals(1, unknown.exitCode(), unknown.describe());
        assertEquals("error: field \"nonsense\" does not exist", unknown.stderrText());
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }
}
