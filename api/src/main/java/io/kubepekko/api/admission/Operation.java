package io.kubepekko.api.admission;

/**
 * kube's admission operations of the writes admission sees ({@code admission.Operation}; CONNECT,
 * for proxied streams, has no write here). Its name is kube's wire value, as messages quote it.
 */
public enum Operation {
    /** A create, a create through update or apply, and a create through a subresource. */
    CREATE,
    /** An update or a patch (server-side apply included) of an object or of its subresource. */
    UPDATE,
    /** A delete of one object (a delete of a collection is one per object). */
    DELETE
}
