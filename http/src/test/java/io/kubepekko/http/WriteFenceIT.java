package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.fencing.WritePermit;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The journal fence on the cassandra profile: while a server's write permit has lapsed (it lost its
 * lease on the cluster's majority), every write through it fails with a 503 Status and stores
 * nothing; once the permit is back, writes succeed again. The lease's renewals are put off for an
 * hour here, so that the test alone decides the permit.
 */
class WriteFenceIT {
    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    private static String configMap(String name) {
        return json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "'}}");
    }

    @Test
    void aServerWhosePermitLapsedWritesNothingAndWritesAgainOnceItIsBack() throws Exception {
        StorageFlags storage = TestCassandra.freshKeyspace();
        try (TestApiServer api =
                TestApiServer.startSingle(
                        s ->
                                s.withStorage(storage)
                                        .withConfig(
                                                "kubepekko.cluster.write-lease.interval = 1h"))) {
            api.create(CMS, configMap("before"));
            WritePermit permit = api.server().writePermit();

            permit.revoke(
                    "fewer than 1 of the other 2 members of the cluster answered within 2000 ms");
            Response fenced = api.post(CMS, configMap("fenced"));
            assertEquals(503, fenced.code(), fenced.text());
            JsonNode status = fenced.json();
            assertEquals("Status", status.path("kind").asText(), fenced.text());
            Response patched =
                    api.patch(
                            CMS + "/before",
                            "application/merge-patch+json",
                            json("{'data':{'k':'v'}}"));
            assertEquals(503, patched.code(), patched.text());

            permit.grantAlways();
            // The collection restarts with back-off after the refused write: until it runs again,
            // 503.
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> {
                                Response r = api.get(CMS + "/before");
                                return r.code() == 200;
                            });
            assertEquals(404, api.get(CMS + "/fenced").code(), "the refused create stored nothing");
            assertTrue(
                    api.get(CMS + "/before").json().path("data").isMissingNode(),
                    "the refused patch stored nothing");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> api.post(CMS, configMap("after")).code() == 201);
            assertEquals(
                    List.of("after", "before"), itemNames(api.get(CMS).assertCode(200).json()));
        }
    }
}
