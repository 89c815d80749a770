package io.kubepekko.api.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import java.util.Objects;
import java.util.Optional;

/**
 * kube's root CA publisher's ConfigMap: {@code kube-root-ca.crt} in every namespace, whose {@code
 * ca.crt} is the bundle clients verify the API server with (pods read it from their token volume),
 * with kube's {@code kubernetes.io/description} annotation. One whose data differ (any other key
 * too; {@code binaryData} is not looked at) or whose annotation is empty is written back with
 * exactly that data and the annotation, its other annotations and labels kept, as kube's publisher
 * does.
 */
public final class RootCaConfigMap implements PublishedObject {

    public static final String NAME = "kube-root-ca.crt";
    public static final String KEY = "ca.crt";
    static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
    static final String DESCRIPTION =
            "Contains a CA bundle that can be used to verify the kube-apiserver when using internal"
                    + " endpoints such as the internal service IP or kubernetes.default.svc. No"
                    + " other usage is guaranteed across distributions of Kubernetes clusters.";
    static final GroupResource CONFIG_MAPS = new GroupResource("", "configmaps");

    private final String rootCa;

    /**
     * @param rootCa the PEM bundle of the CA the API server's serving certificate is verified with
     */
    public RootCaConfigMap(String rootCa) {
        this.rootCa = Objects.requireNonNull(rootCa, "rootCa");
    }

    @Override
    public GroupResource resource() {
        return CONFIG_MAPS;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode created() {
        ObjectNode cm = JsonNodeFactory.instance.objectNode();
        cm.put("apiVersion", "v1");
        cm.put("kind", "ConfigMap");
        ObjectNode meta = cm.putObject("metadata");
        meta.put("name", NAME);
        meta.putObject("annotations").put(DESCRIPTION_ANNOTATION, DESCRIPTION);
        cm.set("data", data());
        return cm;
    }

    @Override
    public Optional<ObjectNode> corrected(ObjectNode existing) {
        JsonNode annotation =
                existing.path("metadata").path("annotations").path(DESCRIPTION_ANNOTATION);
        if (data().equals(existing.path("data")) && !annotation.asText("").isEmpty()) {
            return Optional.empty();
        }
        ObjectNode fixed = existing.deepCopy();
        fixed.set("data", data());
        ObjectNode meta = (ObjectNode) fixed.get("metadata");
        JsonNode annotations = meta.path("annotations");
        ObjectNode writable =
                annotations.isObject() ? (ObjectNode) annotations : meta.putObject("annotations");
        writable.put(DESCRIPTION_ANNOTATION, DESCRIPTION);
        return Optional.of(fixed);
    }

    private ObjectNode data() {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put(KEY, rootCa);
        return data;
    }
}
