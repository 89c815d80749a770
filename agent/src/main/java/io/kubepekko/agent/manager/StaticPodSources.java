package io.kubepekko.agent.manager;

import io.kubepekko.agent.manifest.ManifestOrigin;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The static pod uids each source listed last (a source sends its whole set each time, the
 * kubelet's {@code SET} update): tells which uids a new set no longer has.
 */
final class StaticPodSources {
    private final Map<ManifestOrigin.Kind, Set<String>> uids = new HashMap<>();

    /**
     * Records {@code now} as {@code source}'s set; answers the uids its previous set had and this
     * one has not.
     */
    Set<String> replace(ManifestOrigin.Kind source, Set<String> now) {
        Set<String> before = uids.put(source, Set.copyOf(now));
        Set<String> gone = new HashSet<>(before == null ? Set.of() : before);
        gone.removeAll(now);
        return gone;
    }
}
