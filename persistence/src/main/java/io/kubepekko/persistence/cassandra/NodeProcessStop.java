package io.kubepekko.persistence.cassandra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ends a node's process: SIGTERM (Cassandra drains and flushes), then a forced kill if it has not
 * exited within a minute. Works for a child of this JVM and for a detached node started by another
 * process, whose exit the JDK only sees once pid 1 reaps it: an exited, unreaped process counts as
 * gone.
 */
final class NodeProcessStop {
    private NodeProcessStop() {}

    /** Returns once {@code process} is gone; fails if even a forced kill does not end it. */
    static void kill(ProcessHandle process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(process, Duration.ofSeconds(60))) {
            process.destroyForcibly();
            if (!awaitExit(process, Duration.ofSeconds(30))) {
                throw new IllegalStateException(
                        "local Cassandra (pid " + process.pid() + ") did not exit");
            }
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        CompletableFuture<ProcessHandle> exit = process.onExit();
        while (true) {
            try {
                exit.get(100, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                if (zombie(process.pid()) && !childOfThisJvm(process)) {
                    return true; // a child of this JVM is reaped by the JDK at once, and onExit
                    // completes
                }
                if (System.nanoTime() > deadline) {
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !process.isAlive();
            } catch (ExecutionException e) {
                return !process.isAlive();
            }
        }
    }

    private static boolean childOfThisJvm(ProcessHandle process) {
        return process.parent().map(p -> p.pid() == ProcessHandle.current().pid()).orElse(false);
    }

    /**
     * Whether the process has exited but is not reaped yet: a detached node's parent is pid 1,
     * which may take seconds to reap it, and the JDK counts it alive until then. Linux only;
     * elsewhere false.
     */
    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (command) state ...": the command may hold spaces and parentheses.
            int end = stat.lastIndexOf(')');
            return end > 0 && stat.length() > end + 2 && stat.charAt(end + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
