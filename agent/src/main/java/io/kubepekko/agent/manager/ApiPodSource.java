package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.Reflector;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.api.WatchEvent;
import io.kubepekko.agent.manifest.StaticPodAnnotations;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * The kubelet's API config source: the pods bound to this node ({@code
 * pods?fieldSelector=spec.nodeName=<node>}, all namespaces), listed and watched through a {@link
 * Reflector}, and the rule which of them the node runs.
 */
final class ApiPodSource {

    /**
     * Each watch asks the server to end it after this; the reflector resumes it (client-go: 5 to 10
     * min).
     */
    static final Duration WATCH_TIMEOUT = Duration.ofMinutes(5);

    private final Reflector reflector;

    private ApiPodSource(Reflector reflector) {
        this.reflector = reflector;
    }

    /**
     * Starts listing and watching; each (re)list goes to {@code listed}, each watch event to {@code
     * event}.
     */
    static ApiPodSource start(
            ApiClient client,
            String nodeName,
            ScheduledExecutorService scheduler,
            Consumer<List<ObjectNode>> listed,
            Consumer<WatchEvent> event) {
        Reflector reflector =
                new Reflector(
                        client,
                        Resource.PODS.collection(null),
                        boundTo(nodeName),
                        WATCH_TIMEOUT,
                        new Reflector.Handler() {
                            @Override
                            public void listed(List<ObjectNode> items, String resourceVersion) {
                                listed.accept(items);
                            }

                            @Override
                            public void event(WatchEvent e) {
                                event.accept(e);
                            }
                        },
                        scheduler);
        reflector.start();
        return new ApiPodSource(reflector);
    }

    void stop() {
        reflector.stop();
    }

    /** The collection and selector of the pods bound to {@code nodeName}. */
    static ListOptions boundTo(String nodeName) {
        return ListOptions.ALL.withFieldSelector("spec.nodeName=" + nodeName);
    }

    /**
     * Whether {@code pod} is one for this node to run: bound here (the field selector already
     * filters; a pod bound elsewhere is never run whatever the server sends), with a uid, and not a
     * mirror pod (those belong to a static pod, as in the kubelet).
     */
    static boolean runsHere(JsonNode pod, String nodeName) {
        return nodeName.equals(pod.path("spec").path("nodeName").asText(""))
                && !PodChange.uid(pod).isEmpty()
                && !StaticPodAnnotations.isMirror(pod);
    }
}
