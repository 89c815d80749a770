package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LimitRanger admission plugin through the API: a pod created where a LimitRange is gets its
 * default requests and limits with kube's annotation (a dry run shows them and stores nothing, an
 * apply that creates gets them too), a pod or claim breaking a LimitRange is refused with kube's
 * 403, on create and on a claim's patch, and a LimitRange kube would not accept is a 422.
 */
class LimitRangerIT {

    private static final String ANNOTATION = "kubernetes.io/limit-ranger";
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "limits-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String pods(String ns) {
        return "/api/v1/namespaces/" + ns + "/pods";
    }

    private static String claims(String ns) {
        return "/api/v1/namespaces/" + ns + "/persistentvolumeclaims";
    }

    private static void limitRange(String ns, String limits) {
        api.create(
                "/api/v1/namespaces/" + ns + "/limitranges",
                json(
                        "{'apiVersion':'v1','kind':'LimitRange','metadata':{'name':'lr'},"
                                + "'spec':{'limits':"
                                + limits
                                + "}}"));
    }

    private static String pod(String name, String resources) {
        return json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                        + name
                        + "'},'spec':{'containers':[{'name':'app','image':'nginx',"
                        + "'resources':"
                        + resources
                        + "}]}}");
    }

    private static String claim(String name, String storage) {
        return json(
                "{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'"
                        + name
                        + "'},'spec':{'accessModes':['ReadWriteOnce'],"
                        + "'resources':{'requests':{'storage':'"
                        + storage
                        + "'}}}}");
    }

    /**
     * Waits until the LimitRange reached the informer of the server that admits the namespace's
     * pods: a dry-run create (which stores nothing) answers as {@code applied} says.
     */
    private static void awaitPodsLimited(String ns, String probe, int codeOnceApplied) {
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            Response r = api.post(pods(ns) + "?dryRun=All", probe);
                            return r.code() == codeOnceApplied
                                    && (r.code() != 201
                                            || r.json()
                                                    .at("/metadata/annotations")
                                                    .has(ANNOTATION));
                        });
    }

    @Test
    void aPodGetsTheDefaultsAndKubesAnnotationAndItsQosCountsThem() {
        String ns = newNamespace();
        limitRange(
                ns,
                "[{'type':'Container','default':{'cpu':'500m','memory':'256Mi'},"
                        + "'defaultRequest':{'cpu':'500m','memory':'256Mi'}}]");
        awaitPodsLimited(ns, pod("probe", "{}"), 201);

        ObjectNode created = api.create(pods(ns), pod("web", "{'requests':{'cpu':'250m'}}"));
        assertEquals(
                TestApiServer.obj(
                        "{'limits':{'cpu':'500m','memory':'256Mi'},"
                                + "'requests':{'cpu':'250m','memory':'256Mi'}}"),
                created.at("/spec/containers/0/resources"));
        assertEquals(
                "LimitRanger plugin set: memory request for container app;"
                        + " cpu, memory limit for container app",
                created.at("/metadata/annotations").path(ANNOTATION).asText());
        assertEquals("Burstable", created.at("/status/qosClass").asText());
        ObjectNode stored = api.get(pods(ns) + "/web").assertCode(200).json();
        assertEquals(
                created.at("/spec/containers/0/resources"),
                stored.at("/spec/containers/0/resources"));

        ObjectNode bare = api.create(pods(ns), pod("bare", "{}"));
        // kube's PrepareForCreate derives the QoS class from the defaulted pod
        assertEquals("Guaranteed", bare.at("/status/qosClass").asText());
    }

    @Test
    void aDryRunShowsTheDefaultsAndStoresNothing() {
        String ns = newNamespace();
        limitRange(ns, "[{'type':'Container','default':{'memory':'128Mi'}}]");
        awaitPodsLimited(ns, pod("probe", "{}"), 201);

        ObjectNode shown =
                api.post(pods(ns) + "?dryRun=All", pod("dry", "{}")).assertCode(201).json();
        assertEquals("128Mi", shown.at("/spec/containers/0/resources/limits/memory").asText());
        assertEquals(
                "LimitRanger plugin set: memory request for container app;"
                        + " memory limit for container app",
                shown.at("/metadata/annotations").path(ANNOTATION).asText());
        api.get(pods(ns) + "/dry").assertCode(404);
    }

    @Test
    void aPodBreakingTheLimitRangeIsRefusedWithEveryViolationInKubesWords() {
        String ns = newNamespace();
        limitRange(
                ns,
                "[{'type':'Container','max':{'cpu':'500m'},'min':{'memory':'64Mi'},"
                        + "'maxLimitRequestRatio':{'cpu':'2'}}]");
        String big = pod("big", "{'limits':{'cpu':'1'},'requests':{'cpu':'250m','memory':'32Mi'}}");
        awaitPodsLimited(ns, big, 403);

        api.post(pods(ns), big)
                .assertStatus(
                        403,
                        "Forbidden",
                        "pods \"big\" is forbidden: [minimum memory usage per Container is 64Mi,"
                                + " but request is 32Mi, maximum cpu usage per Container is 500m,"
                                + " but limit is 1, cpu max limit to request ratio per Container is"
                                + " 2, but provided ratio is 4.000000]");
        api.get(pods(ns) + "/big").assertCode(404);
        // the defaults from max (500m) and min (64Mi) complete a pod that names nothing
        ObjectNode bare = api.create(pods(ns), pod("bare", "{}"));
        assertEquals(
                TestApiServer.obj(
                        "{'limits':{'cpu':'500m'},'requests':{'cpu':'500m','memory':'64Mi'}}"),
                bare.at("/spec/containers/0/resources"));
    }

    @Test
    void anApplyThatCreatesIsDefaultedAndAClaimsPatchIsJudged() {
        String ns = newNamespace();
        limitRange(
                ns,
                "[{'type':'Container','default':{'cpu':'1'},'defaultRequest':{'cpu':'100m'}},"
                        + "{'type':'PersistentVolumeClaim','max':{'storage':'2Gi'}}]");
        awaitPodsLimited(ns, pod("probe", "{}"), 201);

        ObjectNode applied =
                api.call("PATCH", pods(ns) + "/applied?fieldManager=tester")
                        .body("application/apply-patch+yaml", pod("applied", "{}"))
                        .send()
                        .assertCode(201)
                        .json();
        assertEquals(
                TestApiServer.obj("{'limits':{'cpu':'1'},'requests':{'cpu':'100m'}}"),
                applied.at("/spec/containers/0/resources"));

        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.post(claims(ns) + "?dryRun=All", claim("probe", "3Gi")).code()
                                        == 403);
        api.post(claims(ns), claim("huge", "5Gi"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "persistentvolumeclaims \"huge\" is forbidden: maximum storage usage per"
                                + " PersistentVolumeClaim is 2Gi, but request is 5Gi");
        api.create(claims(ns), claim("data", "1Gi"));
        api.patch(
                        claims(ns) + "/data",
                        "application/merge-patch+json",
                        json("{'spec':{'resources':{'requests':{'storage':'3Gi'}}}}"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "persistentvolumeclaims \"data\" is forbidden: maximum storage usage per"
                                + " PersistentVolumeClaim is 2Gi, but request is 3Gi");
    }

    @Test
    void aLimitRangeKubeWouldRefuseIsInvalid() {
        String ns = newNamespace();
        api.post(
                        "/api/v1/namespaces/" + ns + "/limitranges",
                        json(
                                "{'apiVersion':'v1','kind':'LimitRange','metadata':{'name':'bad'},"
                                        + "'spec':{'limits':[{'type':'Container','min':{'cpu':'2'},"
                                        + "'max':{'cpu':'1'}}]}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        "LimitRange \"bad\" is invalid: [spec.limits[0].min[cpu]: Invalid value: 2:"
                                + " min value 2 is greater than max value 1,"
                                + " spec.limits[0].defaultRequest[cpu]: Invalid value: 1: min"
                                + " value 2 is greater than default request value 1,"
                                + " spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is"
                                + " greater than default value 1]");
    }
}
