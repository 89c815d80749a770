package io.kubepekko.http.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * /readyz's cluster check on a node before and after it is Up (unreachable members need a second
 * node).
 */
class ClusterHealthTest {

    private final ActorTestKit kit =
            ActorTestKit.create(
                    "kubepekko",
                    ConfigFactory.parseString(
                            """
            pekko.actor.provider = cluster
            pekko.remote.artery.canonical { hostname = 127.0.0.1, port = 0 }
            pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
            """));

    @AfterEach
    void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void failsUntilTheNodeIsUp() {
        Cluster cluster = Cluster.get(kit.system());
        Optional<String> before = BootSteps.clusterHealth(cluster);
        assertTrue(
                before.isPresent()
                        && before.get().startsWith("this node is ")
                        && before.get().endsWith(", not Up"),
                before.toString());

        cluster.manager().tell(Join.create(cluster.selfMember().address()));
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .untilAsserted(
                        () -> assertEquals(Optional.empty(), BootSteps.clusterHealth(cluster)));
    }
}
