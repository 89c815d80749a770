package io.kubepekko.agent.worker;

/**
 * The pass bookkeeping of a {@link PodWorker}'s sync loop: one pass at a time; a sync asked for
 * while a pass runs is run once it ends; a pass that changed something is followed at once by
 * another (to see what its steps did), one that met a failure or a back-off wait by one a relist
 * period later.
 */
final class SyncPass {

    /** What follows a pass. */
    enum Next {
        /** Another pass at once. */
        NOW,
        /** Another pass one relist period later. */
        AFTER_RELIST_PERIOD,
        /** Nothing until something else asks. */
        NOTHING
    }

    private boolean busy;
    private boolean progressed;

    /** A relist was asked for while a pass ran: the pass relists again when it ends. */
    private boolean again;

    /** The pass met a failure or a back-off wait: sync again one relist period later. */
    private boolean retry;

    /**
     * A sync is asked for: true if a pass begins now, false if one runs (then another follows it).
     */
    boolean begin() {
        if (busy) {
            again = true;
            return false;
        }
        busy = true;
        progressed = false;
        again = false;
        retry = false;
        return true;
    }

    /** A step of the pass changed something in the runtime. */
    void progressed() {
        progressed = true;
    }

    /** The pass met a failure or a back-off wait. */
    void retry() {
        retry = true;
    }

    /** The pass ended: what follows it. */
    Next end() {
        busy = false;
        if (progressed || again) {
            return Next.NOW;
        }
        return retry ? Next.AFTER_RELIST_PERIOD : Next.NOTHING;
    }
}
