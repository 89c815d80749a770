package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The admission webhook ITs' set-up, one per test class as a JUnit extension in a static field
 * ({@code @RegisterExtension}): the class's {@link TestApiServer}, started first and stopped last,
 * an {@link AdmissionWebhookServer}, and the cases' configurations and requests. Every
 * configuration is limited to its own namespace by a namespace selector, so the cases do not meet;
 * {@link #configure} waits until its configuration reached the server's informer by the request its
 * "probe" webhook records.
 */
final class AdmissionWebhookFixture implements BeforeAllCallback, AfterAllCallback {

    static final Duration DEADLINE = Duration.ofSeconds(30);

    private final TestApiServer api;
    private final AdmissionWebhookServer webhooks;
    private final AtomicInteger names = new AtomicInteger();

    /**
     * A fixture around {@code api}, a {@link TestApiServer#perClass} server it starts and stops.
     */
    AdmissionWebhookFixture(TestApiServer api) {
        this.api = api;
        this.webhooks = new AdmissionWebhookServer(api);
    }

    /** The API server the cases write through. */
    TestApiServer api() {
        return api;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        api.beforeAll(context);
        webhooks.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        // The webhook server first, as the API server may call it until it stops; the API server
        // stops even when the webhook server never started.
        try {
            webhooks.stop();
        } finally {
            api.afterAll(context);
        }
    }

    /** The reviews the webhook server received, by the path it was called at. */
    Map<String, List<JsonNode>> received() {
        return webhooks.received();
    }

    /** The webhook server's port on 127.0.0.1. */
    int port() {
        return webhooks.port();
    }

    /** The webhook server's URL of {@code path}. */
    String url(String path) {
        return webhooks.url(path);
    }

    /** A namespace of its own, labelled so that only its case's configuration applies there. */
    String newCase() {
        return newCase("hooks-" + names.incrementAndGet());
    }

    /** The namespace {@code c}, labelled as a case of its own. */
    String newCase(String c) {
        return labelledNamespace(c, c);
    }

    /**
     * A namespace {@code ns} labelled as case {@code c}'s, so that case {@code c}'s configurations
     * apply there too.
     */
    String labelledNamespace(String ns, String c) {
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + ns
                                + "','labels':{'webhook-case':'"
                                + c
                                + "'}}}"));
        return ns;
    }

    /**
     * A webhook of case {@code c} calling {@code path} on ConfigMap creates; {@code extra} adds
     * fields (failurePolicy, objectSelector…).
     */
    String hook(String c, String name, String path, String extra) {
        return hookAt(c, name, webhooks.url(path), extra);
    }

    /**
     * As {@link #hook}, without a {@code caBundle}: the server calls it trusting the JDK's system
     * CAs only, which the test webhook's own CA is not among.
     */
    String hookWithoutCaBundle(String c, String name, String path, String extra) {
        String hook = hook(c, name, path, extra);
        String bundle = ",'caBundle':'" + webhooks.caBundle() + "'";
        if (!hook.contains(bundle)) {
            throw new IllegalStateException("no caBundle to leave out: " + hook);
        }
        return hook.replace(bundle, "");
    }

    /** As {@link #hook}, calling {@code url} wherever it is. */
    String hookAt(String c, String name, String url, String extra) {
        return "{'name':'"
                + name
                + "','clientConfig':{'url':'"
                + url
                + "','caBundle':'"
                + webhooks.caBundle()
                + "'},'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],"
                + "'resources':['configmaps']}],'sideEffects':'None','admissionReviewVersions':['v1'],"
                + "'namespaceSelector':{'matchLabels':{'webhook-case':'"
                + c
                + "'}}"
                + (extra.isEmpty() ? "" : "," + extra)
                + "}";
    }

    /**
     * Configures {@code hooks} (after a probe webhook) for case {@code c} and waits until the
     * server calls them: the probe saw a request.
     */
    void configure(String c, boolean mutating, String... hooks) {
        List<String> all = new ArrayList<>();
        // A probe of each kind: a case may configure both, and waits for each.
        String probe = "/probe/" + c + "/" + (mutating ? "mutating" : "validating");
        all.add(hook(c, "probe." + c + ".example.com", probe, ""));
        all.addAll(List.of(hooks));
        api.create(
                configurations(mutating), configuration(mutating, c, all.toArray(String[]::new)));
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            api.post(configMaps(c) + "?dryRun=All", configMap("probe", "{}"));
                            return webhooks.received().containsKey(probe);
                        });
    }

    /** The path of the mutating or validating webhook configurations. */
    static String configurations(boolean mutating) {
        return "/apis/admissionregistration.k8s.io/v1/"
                + (mutating ? "mutating" : "validating")
                + "webhookconfigurations";
    }

    /** A mutating or validating webhook configuration {@code name} of {@code hooks}. */
    static String configuration(boolean mutating, String name, String... hooks) {
        return json(
                "{'apiVersion':'admissionregistration.k8s.io/v1','kind':'"
                        + (mutating ? "Mutating" : "Validating")
                        + "WebhookConfiguration','metadata':{'name':'"
                        + name
                        + "'},'webhooks':["
                        + String.join(",", hooks)
                        + "]}");
    }

    /** {@code hook} called on {@code operations} ({@code DELETE}…) instead of creates. */
    static String onOperations(String hook, String... operations) {
        return hook.replace("'operations':['CREATE']", "'operations':[" + quoted(operations) + "]");
    }

    /** {@code hook} called on {@code resources} ({@code pods/eviction}…) instead of ConfigMaps. */
    static String onResources(String hook, String... resources) {
        return hook.replace(
                "'resources':['configmaps']", "'resources':[" + quoted(resources) + "]");
    }

    private static String quoted(String... values) {
        return "'" + String.join("','", values) + "'";
    }

    /** Creates Pod {@code p} in {@code ns}; answers the path of the namespace's pods. */
    String createPod(String ns) {
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        api.create(
                pods,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
        return pods;
    }

    /** The answer to an eviction of Pod {@code p} of {@code pods}. */
    Response evict(String pods) {
        return api.post(
                pods + "/p/eviction",
                json("{'apiVersion':'policy/v1','kind':'Eviction','metadata':{'name':'p'}}"));
    }

    static String configMaps(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    static String configMap(String name, String labels) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "','labels':"
                        + labels
                        + "},'data':{'k':'v'}}");
    }
}
