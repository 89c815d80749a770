package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric8 Java client's shared informer (list, then watch from the list's version, re-watch
 * from the last version it saw, relist on 410) against the server, across a restart of the server:
 * it must receive every change and end with exactly the server's state. It talks TLS with the
 * server's admin kubeconfig, and reconnects to the restarted server with the same one (the server
 * keeps its CAs).
 */
class Fabric8InformerE2E {

    @TempDir static Path scratch;

    /**
     * One event the informer's handler received: {@code add|update|delete name@resourceVersion}.
     */
    private static String seen(String what, ConfigMap cm) {
        return what
                + " "
                + cm.getMetadata().getName()
                + "@"
                + cm.getMetadata().getResourceVersion();
    }

    @Test
    void anInformerReceivesEveryChangeAcrossAServerRestart() throws Exception {
        int port = freePort();
        ApiServerSettings settings =
                ApiServerSettings.defaults()
                        .withDataDir(scratch.resolve("data"))
                        .withBindAddress("127.0.0.1")
                        .withPort(port);
        ApiServer server = ApiServer.start(settings);
        // The server's own kubeconfig, read by fabric8 as a user hands it over: the CA to verify
        // the server with, the admin's client certificate and its SEC 1 key.
        Config config =
                new ConfigBuilder(Config.fromKubeconfig(server.kubeconfig().toFile()))
                        .withNamespace("fab")
                        .withRequestTimeout(10_000)
                        .withConnectionTimeout(5_000)
                        .build();
        List<String> events = new CopyOnWriteArrayList<>();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            client.namespaces()
                    .resource(
                            new NamespaceBuilder()
                                    .withNewMetadata()
                                    .withName("fab")
                                    .endMetadata()
                                    .build())
                    .create();
            ConfigMap a = create(client, "a", "1");
            SharedIndexInformer<ConfigMap> informer =
                    client.configMaps()
                            .inNamespace("fab")
                            .inform(
                                    new ResourceEventHandler<>() {
                                        @Override
                                        public void onAdd(ConfigMap obj) {
                                            events.add(seen("add", obj));
                                        }

                                        @Override
                                        public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
                                            events.add(seen("update", newObj));
                                        }

                                        @Override
                                        public void onDelete(
                                                ConfigMap obj, boolean deletedFinalStateUnknown) {
                                            events.add(seen("delete", obj));
                                        }
                                    },
                                    0);
            try {
                ConfigMap b = create(client, "b", "1");
                ConfigMap a2 = update(client, "a", "2");
                awaitSeen(events, seen("add", a), seen("add", b), seen("update", a2));
                server.close();
                server = ApiServer.start(settings); // same data, same port: the informer reconnects

                ConfigMap b2 = update(client, "b", "2");
                ConfigMap c = create(client, "c", "1");
                client.configMaps().inNamespace("fab").withName("a").delete();
                awaitSeen(events, seen("update", b2), seen("add", c));
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> events.stream().anyMatch(e -> e.startsWith("delete a@")));

                Map<String, String> expected =
                        versions(client.configMaps().inNamespace("fab").list().getItems());
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(
                                () ->
                                        assertEquals(
                                                expected,
                                                versions(informer.getStore().list()),
                                                "the informer's store"));
                // Beside the test's: kube-root-ca.crt, which the root CA publisher keeps in every
                // namespace.
                Map<String, String> written = new HashMap<>(expected);
                written.remove("kube-root-ca.crt");
                assertEquals(
                        Map.of(
                                "b",
                                b2.getMetadata().getResourceVersion(),
                                "c",
                                c.getMetadata().getResourceVersion()),
                        written);
                assertTrue(
                        events.stream()
                                .noneMatch(
                                        e ->
                                                e.startsWith("delete b@")
                                                        || e.startsWith("delete c@")),
                        "nothing that still exists was reported deleted: " + events);
            } finally {
                informer.close();
            }
        } finally {
            server.close();
        }
    }

    private static ConfigMap create(KubernetesClient client, String name, String value) {
        return client.configMaps()
                .inNamespace("fab")
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withData(Map.of("k", value))
                                .build())
                .create();
    }

    private static ConfigMap update(KubernetesClient client, String name, String value) {
        return client.configMaps()
                .inNamespace("fab")
                .withName(name)
                .edit(cm -> new ConfigMapBuilder(cm).withData(Map.of("k", value)).build());
    }

    private static void awaitSeen(List<String> events, String... expected) {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () ->
                                assertTrue(
                                        new ArrayList<>(events).containsAll(List.of(expected)),
                                        "expected " + List.of(expected) + " among " + events));
    }

    private static Map<String, String> versions(List<ConfigMap> items) {
        Map<String, String> out = new TreeMap<>();
        items.forEach(
                cm -> out.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion()));
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
