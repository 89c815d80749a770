package io.kubepekko.api.auth.serviceaccount;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the objects a service-account token names still exist: the SPI the token authenticator
 * asks on every request carrying such a token (kube's {@code ServiceAccountTokenGetter}). A token
 * stops working when its service account, or the pod, secret or node it is bound to, is gone,
 * deleted, or recreated with another uid.
 *
 * <p>It is called on the request path, synchronously: implementations answer from memory (a watch
 * cache), not by a round trip to storage.
 */
@FunctionalInterface
public interface BoundObjects {

    /** The kinds a token can name. */
    enum Kind {
        SERVICE_ACCOUNT,
        POD,
        SECRET,
        NODE
    }

    /**
     * What is known of a live object.
     *
     * @param uid its {@code metadata.uid}
     * @param deletionTimestamp its {@code metadata.deletionTimestamp}, if it is being deleted
     * @param nodeName a pod's {@code spec.nodeName} (which NodeRestriction checks a node's token
     *     request against); empty for an unscheduled pod and for the other kinds
     */
    record Live(String uid, Optional<Instant> deletionTimestamp, String nodeName) {
        public Live {
            nodeName = nodeName == null ? "" : nodeName;
        }

        public Live(String uid, Optional<Instant> deletionTimestamp) {
            this(uid, deletionTimestamp, "");
        }

        public static Live of(String uid) {
            return new Live(uid, Optional.empty());
        }
    }

    /**
     * The object of {@code kind} named {@code name} in {@code namespace} ("" for nodes), if it
     * exists.
     */
    Optional<Live> find(Kind kind, String namespace, String name);

    /**
     * A fixed set of objects (a copy of {@code objects}, keyed by {@link #key}), for tests and for
     * wiring before a store is at hand.
     */
    static BoundObjects of(Map<String, Live> objects) {
        Map<String, Live> copy = new HashMap<>(objects);
        return (kind, namespace, name) -> Optional.ofNullable(copy.get(key(kind, namespace, name)));
    }

    /** The key of an object in {@link #of}. */
    static String key(Kind kind, String namespace, String name) {
        return kind + "/" + namespace + "/" + name;
    }
}
