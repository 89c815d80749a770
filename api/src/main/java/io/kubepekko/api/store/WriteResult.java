package io.kubepekko.api.store;

import io.kubepekko.api.status.ApiStatus;
import java.util.List;

/**
 * What one write answers, from the collection that ran it to the client: the kind of answer, its
 * body and warnings, or the refusal. Only the HTTP edge turns it into a status code; nothing on the
 * way reshapes it. It crosses the cluster as a reply, so it holds bytes and plain values only.
 */
public sealed interface WriteResult permits WriteResult.Success, WriteResult.Refused {

    /**
     * A write that was carried out (or, for a dry run, would have been). {@link #body} is the
     * response body's JSON: the object, its {@code Scale}, or a {@code Status} of success; {@link
     * #warnings} are the {@code Warning} header texts; {@link #resourceVersion} is the version
     * assigned, or 0 when nothing was persisted (a dry run, a write that changed nothing).
     */
    sealed interface Success extends WriteResult
            permits Created, Updated, Unchanged, Deleted, Accepted {
        byte[] body();

        List<String> warnings();

        long resourceVersion();
    }

    /** The object was created. */
    record Created(byte[] body, List<String> warnings, long resourceVersion) implements Success {}

    /** The object changed and stays: an update, a patch, or a delete that marked it terminating. */
    record Updated(byte[] body, List<String> warnings, long resourceVersion) implements Success {}

    /** The write changed nothing: no event, no new version. */
    record Unchanged(byte[] body, List<String> warnings, long resourceVersion) implements Success {}

    /** The object is gone: a delete, or an update that removed its last finalizer. */
    record Deleted(byte[] body, List<String> warnings, long resourceVersion) implements Success {}

    /**
     * A delete that asked for cascading deletion ({@code orphanDependents=false}) and left the
     * object in place, terminating while finalizers are pending; kube-apiserver answers these alone
     * 202.
     */
    record Accepted(byte[] body, List<String> warnings, long resourceVersion) implements Success {}

    /** The write was refused; nothing changed. */
    record Refused(ApiStatus status) implements WriteResult, WriteDecision {}
}
