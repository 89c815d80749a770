package io.kubepekko.http.server;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.controllers.IndexSource;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.InformedIndex;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;

/**
 * Starts the informers that keep the admission plugins' indexes current, one {@link IndexSource}
 * per resource, each added to the sources the server stops when it closes.
 */
final class IndexFeeds {
    private final ControlPlane controlPlane;
    private final Backoff backoff;
    private final List<ActorRef<?>> sources;

    IndexFeeds(ControlPlane controlPlane, Backoff backoff, List<ActorRef<?>> sources) {
        this.controlPlane = controlPlane;
        this.backoff = backoff;
        this.sources = sources;
    }

    /** Feeds {@code index} with {@code resource} from now on; answers the index. */
    <T extends InformedIndex> T follow(GroupResource resource, T index, String name) {
        sources.add(
                controlPlane
                        .system()
                        .systemActorOf(
                                IndexSource.create(controlPlane, resource, index, backoff),
                                name,
                                Props.empty()));
        return index;
    }
}
