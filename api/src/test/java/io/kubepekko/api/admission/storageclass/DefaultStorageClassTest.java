package io.kubepekko.api.admission.storageclass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DefaultStorageClass against the cases of kube's {@code setdefault/admission_test.go}. */
class DefaultStorageClassTest {

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static ObjectNode storageClass(String name, String created, String annotations) {
        return obj(
                "{'apiVersion':'storage.k8s.io/v1','kind':'StorageClass','metadata':{'name':'"
                        + name
                        + "','creationTimestamp':'"
                        + created
                        + "','annotations':"
                        + annotations
                        + "},'provisioner':'x'}");
    }

    private static final ObjectNode DEFAULT1 =
            storageClass(
                    "default1",
                    "2026-01-01T00:00:00Z",
                    "{'storageclass.kubernetes.io/is-default-class':'true'}");
    private static final ObjectNode DEFAULT2 =
            storageClass(
                    "default2",
                    "2026-01-01T00:00:00Z",
                    "{'storageclass.kubernetes.io/is-default-class':'true'}");
    private static final ObjectNode NEWER_DEFAULT =
            storageClass(
                    "newer",
                    "2026-02-01T00:00:00Z",
                    "{'storageclass.beta.kubernetes.io/is-default-class':'true'}");
    private static final ObjectNode NOT_DEFAULT =
            storageClass(
                    "nondefault",
                    "2026-03-01T00:00:00Z",
                    "{'storageclass.kubernetes.io/is-default-class':'false'}");

    private static ObjectNode claim(String spec, String annotations) {
        return obj(
                "{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'c','namespace':'ns'"
                        + (annotations == null ? "" : ",'annotations':" + annotations)
                        + "},'spec':"
                        + spec
                        + "}");
    }

    private static ObjectNode admitted(Operation op, ObjectNode claim, ObjectNode... classes) {
        DefaultStorageClass plugin =
                new DefaultStorageClass(InformedObjects.of("storage classes", List.of(classes)));
        Mutation m =
                plugin.admit(
                        new AdmissionRequest(
                                op,
                                UserInfo.of("eve", List.of()),
                                DefaultStorageClass.CLAIMS,
                                "",
                                "ns",
                                "c",
                                claim,
                                op == Operation.UPDATE ? claim : null,
                                false));
        return assertInstanceOf(Mutation.Admitted.class, m).object();
    }

    private static final String NO_CLASS = "{'accessModes':['ReadWriteOnce']}";

    @Test
    void noDefaultClassLeavesTheClaim() {
        ObjectNode c = claim(NO_CLASS, null);
        assertSame(c, admitted(Operation.CREATE, c, NOT_DEFAULT));
        assertSame(c, admitted(Operation.CREATE, c));
    }

    @Test
    void oneDefaultIsSet() {
        ObjectNode out = admitted(Operation.CREATE, claim(NO_CLASS, null), DEFAULT1, NOT_DEFAULT);
        assertEquals("default1", out.path("spec").path("storageClassName").asText());
    }

    @Test
    void ofSeveralDefaultsTheNewestThenTheFirstNameWins() {
        ObjectNode out =
                admitted(
                        Operation.CREATE, claim(NO_CLASS, null), DEFAULT2, DEFAULT1, NEWER_DEFAULT);
        assertEquals("newer", out.path("spec").path("storageClassName").asText());
        out = admitted(Operation.CREATE, claim(NO_CLASS, null), DEFAULT2, DEFAULT1);
        assertEquals("default1", out.path("spec").path("storageClassName").asText());
    }

    @Test
    void aClassAskedForIsKeptEvenEmpty() {
        ObjectNode named = claim("{'storageClassName':'gold'}", null);
        assertSame(named, admitted(Operation.CREATE, named, DEFAULT1));
        ObjectNode empty = claim("{'storageClassName':''}", null);
        assertSame(empty, admitted(Operation.CREATE, empty, DEFAULT1));
        ObjectNode beta = claim(NO_CLASS, "{'volume.beta.kubernetes.io/storage-class':'silver'}");
        assertSame(beta, admitted(Operation.CREATE, beta, DEFAULT1));
    }

    @Test
    void updatesAreLeft() {
        ObjectNode c = claim(NO_CLASS, null);
        assertSame(c, admitted(Operation.UPDATE, c, DEFAULT1));
    }
}
