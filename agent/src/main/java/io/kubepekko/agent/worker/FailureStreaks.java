package io.kubepekko.agent.worker;

import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Logs the first failure of a streak (and a changed message), not every retry of it: a pod that
 * cannot start retries every relist and would otherwise fill the log. A success of the same key
 * ends its streak.
 */
final class FailureStreaks {
    private final Logger log;
    private final String uid;
    private final Set<String> failing = new HashSet<>();

    FailureStreaks(Logger log, String uid) {
        this.log = log;
        this.uid = uid;
    }

    void failed(String key, String message) {
        if (failing.add(key + "\n" + message)) {
            log.warn("pod {}: {} (retrying)", uid, message);
        }
    }

    void succeeded(String key) {
        failing.removeIf(k -> k.startsWith(key + "\n"));
    }
}
