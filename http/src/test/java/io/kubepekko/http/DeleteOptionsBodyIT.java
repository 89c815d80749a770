package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The body of a delete or deletecollection is a DeleteOptions: kube-apiserver decodes it with its
 * meta scheme and refuses a body of another kind with 400 before anything is deleted, while
 * DeleteOptions of any group and version, or a body without type, is accepted.
 */
class DeleteOptionsBodyIT {

    private static final String SCHEME =
            " in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\"";
    private static final AtomicInteger names = new AtomicInteger();
    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    /** A namespace holding one ConfigMap, {@code cm}. */
    private static String namespaceWithConfigMap() {
        String ns = "delete-body-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        api.create(
                "/api/v1/namespaces/" + ns + "/configmaps",
                json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'}}"));
        return ns;
    }

    @ParameterizedTest(name = "DELETE .../configmaps{0}")
    @ValueSource(strings = {"", "/cm"})
    void aBodyOfAnotherKindIsRefusedAndNothingIsDeleted(String item) {
        String ns = namespaceWithConfigMap();
        String path = "/api/v1/namespaces/" + ns + "/configmaps" + item;
        api.call("DELETE", path)
                .json(json("{'kind':'Pod','apiVersion':'v1'}"))
                .send()
                .assertStatus(
                        400,
                        "BadRequest",
                        "no kind \"Pod\" is registered for version \"v1\"" + SCHEME);
        api.call("DELETE", path)
                .json(json("{'kind':'Deployment','apiVersion':'apps/v1'}"))
                .send()
                .assertStatus(
                        400,
                        "BadRequest",
                        "no kind \"Deployment\" is registered for version \"apps/v1\"" + SCHEME);
        api.call("DELETE", path)
                .json(json("{'kind':'Pod'}"))
                .send()
                .assertStatus(
                        400,
                        "BadRequest",
                        "no kind \"Pod\" is registered for version \"meta.k8s.io/v1\"" + SCHEME);
        api.call("DELETE", path)
                .json(json("{'kind':'Status','apiVersion':'v1'}"))
                .send()
                .assertStatus(
                        400,
                        "BadRequest",
                        "converting (v1.Status) to (v1.DeleteOptions): unknown conversion");
        api.call("DELETE", path)
                .body("application/yaml", "kind: ConfigMap\napiVersion: v1\n")
                .send()
                .assertStatus(
                        400,
                        "BadRequest",
                        "no kind \"ConfigMap\" is registered for version \"v1\"" + SCHEME);
        api.get("/api/v1/namespaces/" + ns + "/configmaps/cm").assertCode(200);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{'kind':'DeleteOptions','apiVersion':'v1'}",
                "{'kind':'DeleteOptions','apiVersion':'meta.k8s.io/v1'}",
                "{'apiVersion':'meta.k8s.io/v1'}",
                "{'kind':'DeleteOptions','apiVersion':'apps/v1'}",
                "{}",
                "{'kind':'','apiVersion':''}",
                "{'kind':'DeleteOptions','apiVersion':'v1','unknownField':1}"
            })
    void deleteOptionsOfAnyVersionOrNoTypeDelete(String body) {
        String ns = namespaceWithConfigMap();
        api.call("DELETE", "/api/v1/namespaces/" + ns + "/configmaps/cm")
                .json(json(body))
                .send()
                .assertCode(200);
        api.get("/api/v1/namespaces/" + ns + "/configmaps/cm").assertCode(404);
        api.create(
                "/api/v1/namespaces/" + ns + "/configmaps",
                json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'}}"));
        api.call("DELETE", "/api/v1/namespaces/" + ns + "/configmaps")
                .json(json(body))
                .send()
                .assertCode(200);
        api.get("/api/v1/namespaces/" + ns + "/configmaps/cm").assertCode(404);
    }
}
