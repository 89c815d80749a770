package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.protobuf.Envelope;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kubernetes' protobuf over HTTP: request bodies (create, update, DeleteOptions), responses for
 * objects, lists and Status, the protobuf watch stream, and the 400s of malformed bodies.
 */
class ProtobufIT {

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");
    private static final GroupVersionKind SECRET = new GroupVersionKind("", "v1", "Secret");
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "pb-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static Response send(String method, String path, byte[] body) {
        return api.call(method, path).header("Content-Type", PROTOBUF).bytes(body).send();
    }

    private static byte[] protobuf(String singleQuotedJson, GroupVersionKind kind) {
        return ProtobufBodies.builtin().encode(TestApiServer.obj(singleQuotedJson), kind);
    }

    /**
     * Decodes a protobuf response with our codec (Kubernetes' classes check the codec in api's
     * tests).
     */
    private static ObjectNode decode(Response r, GroupVersionKind kind) {
        assertEquals(PROTOBUF, r.mediaType());
        return ProtobufBodies.builtin().decode(r.body(), kind);
    }

    @Test
    void kubectlsCapturedConfigMapBodyCreatesTheObject() {
        String ns = newNamespace();
        byte[] body =
                HexFormat.of()
                        .parseHex(
                                "6b3873000a0f0a027631120943"
                                        + "6f6e6669674d617012200a150a056d616e79311200"
                                        + "1a0022002a00320038004200"
                                        + "12070a016b120276311a002200");
        Response created =
                send("POST", "/api/v1/namespaces/" + ns + "/configmaps", body).assertCode(201);
        assertEquals("many1", created.json().path("metadata").path("name").asText());
        assertEquals(
                "v1",
                api.get("/api/v1/namespaces/" + ns + "/configmaps/many1")
                        .json()
                        .path("data")
                        .path("k")
                        .asText());
    }

    @Test
    void objectsListsAndStatusComeBackInProtobufWhenAsked() {
        String ns = newNamespace();
        String cms = "/api/v1/namespaces/" + ns + "/configmaps";
        send("POST", cms, protobuf("{'metadata':{'name':'a'},'data':{'x':'1'}}", CONFIG_MAP))
                .assertCode(201);
        ObjectNode one = decode(api.get(cms + "/a", PROTOBUF).assertCode(200), CONFIG_MAP);
        assertEquals("1", one.path("data").path("x").asText());
        assertEquals(ns, one.path("metadata").path("namespace").asText());

        Response list = api.get(cms, PROTOBUF + ", application/json").assertCode(200);
        assertEquals(PROTOBUF, list.mediaType());
        Envelope.Unknown unknown = Envelope.decode(list.body());
        assertEquals("ConfigMapList", unknown.kind());
        assertEquals(1, countField(unknown.raw(), 2), "one item");

        Response missing = api.get(cms + "/nope", PROTOBUF).assertCode(404);
        assertEquals(PROTOBUF, missing.mediaType());
        ObjectNode status =
                ProtobufBodies.builtin()
                        .decode(missing.body(), new GroupVersionKind("", "v1", "Status"));
        assertEquals("NotFound", status.path("reason").asText());
        assertEquals(404, status.path("code").asInt());
    }

    @Test
    void aSecretIsReplacedWithAProtobufPutAsHelmDoes() {
        String ns = newNamespace();
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";
        ObjectNode created =
                send(
                                "POST",
                                secrets,
                                protobuf(
                                        "{'metadata':{'name':'sh.helm.release.v1.r1.v1',"
                                                + "'labels':{'owner':'helm','status':'pending-install'}},'type':'helm.sh/release.v1',"
                                                + "'data':{'release':'SDRzSQ=='}}",
                                        SECRET))
                        .assertCode(201)
                        .json();
        String rv = created.path("metadata").path("resourceVersion").asText();
        ObjectNode updated =
                send(
                                "PUT",
                                secrets + "/sh.helm.release.v1.r1.v1",
                                protobuf(
                                        "{'metadata':{'name':"
                                                + "'sh.helm.release.v1.r1.v1','resourceVersion':'"
                                                + rv
                                                + "','labels':{'owner':'helm','status':"
                                                + "'deployed'}},'type':'helm.sh/release.v1','data':{'release':'SDRzSQ=='}}",
                                        SECRET))
                        .assertCode(200)
                        .json();
        assertEquals("deployed", updated.path("metadata").path("labels").path("status").asText());
        assertEquals("SDRzSQ==", updated.path("data").path("release").asText());
    }

    @Test
    void deleteOptionsInProtobufCarryPreconditions() {
        String ns = newNamespace();
        String cms = "/api/v1/namespaces/" + ns + "/configmaps";
        api.create(cms, json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'d'}}"));
        byte[] wrongUid =
                ProtobufBodies.builtin()
                        .encode(
                                TestApiServer.obj("{'preconditions':{'uid':'not-it'}}"),
                                new GroupVersionKind("", "v1", "DeleteOptions"));
        send("DELETE", cms + "/d", wrongUid)
                .assertStatusMessageStartsWith(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on ConfigMap \"d\": the UID in the precondition (not-it) does not match");
        byte[] plain =
                ProtobufBodies.builtin()
                        .encode(
                                TestApiServer.obj("{'gracePeriodSeconds':0}"),
                                new GroupVersionKind("", "v1", "DeleteOptions"));
        send("DELETE", cms + "/d", plain).assertCode(200);
        api.get(cms + "/d").assertCode(404);
    }

    @Test
    void malformedBodiesAreBadRequests() {
        String cms = "/api/v1/namespaces/" + newNamespace() + "/configmaps";
        send("POST", cms, "{\"kind\":\"ConfigMap\"}".getBytes())
                .assertStatusMessageStartsWith(
                        400,
                        "BadRequest",
                        "the object provided is unrecognized ({\"kind\":\"ConfigMap\"}: provided data does not appear to be "
                                + "a protobuf message");
        byte[] truncated =
                Arrays.copyOf(
                        protobuf("{'metadata':{'name':'t'},'data':{'x':'1'}}", CONFIG_MAP), 20);
        send("POST", cms, truncated).assertCode(400);
        byte[] otherKind = protobuf("{'metadata':{'name':'s'}}", SECRET);
        send("POST", cms, otherKind)
                .assertStatusMessageStartsWith(
                        400,
                        "BadRequest",
                        "Secret in version \"v1\" cannot be handled as a ConfigMap");
    }

    @Test
    void aProtobufWatchSendsLengthPrefixedWatchEvents() throws Exception {
        String ns = newNamespace();
        String cms = "/api/v1/namespaces/" + ns + "/configmaps";
        api.create(
                cms,
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'w'},'data':{'k':'v'}}"));
        HttpClient client = TestPki.adminClient();
        HttpResponse<InputStream> r =
                client.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                api.url()
                                                        + cms
                                                        + "?watch=true&resourceVersion=0&timeoutSeconds=30"))
                                .header("Accept", PROTOBUF)
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals(
                "application/vnd.kubernetes.protobuf;stream=watch",
                r.headers().firstValue("Content-Type").orElse("").replace(" ", ""));
        try (DataInputStream in = new DataInputStream(r.body())) {
            Event added = Event.read(in);
            assertEquals("ADDED", added.type());
            assertEquals("w", added.object().path("metadata").path("name").asText());
            api.delete(cms + "/w").assertCode(200);
            Event deleted = Event.read(in);
            assertEquals("DELETED", deleted.type());
            assertEquals("w", deleted.object().path("metadata").path("name").asText());
        }
    }

    /**
     * One frame of a protobuf watch: a 4-byte length, then WatchEvent{type, RawExtension{enveloped
     * object}}.
     */
    private record Event(String type, ObjectNode object) {
        static Event read(DataInputStream in) throws IOException {
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            CodedInputStream event = CodedInputStream.newInstance(frame);
            String type = null;
            byte[] raw = null;
            for (int tag = event.readTag(); tag != 0; tag = event.readTag()) {
                if (tag >>> 3 == 1) {
                    type = event.readString();
                } else {
                    CodedInputStream ext = CodedInputStream.newInstance(event.readByteArray());
                    ext.readTag();
                    raw = ext.readByteArray();
                }
            }
            assertTrue(Envelope.hasMagic(raw), "the event's object is in the protobuf envelope");
            return new Event(type, ProtobufBodies.builtin().decode(raw, CONFIG_MAP));
        }
    }

    private static int countField(byte[] message, int number) {
        try {
            CodedInputStream in = CodedInputStream.newInstance(message);
            int n = 0;
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag >>> 3 == number) {
                    n++;
                }
                in.skipField(tag);
            }
            return n;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
