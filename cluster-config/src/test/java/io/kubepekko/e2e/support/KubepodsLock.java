package io.kubepekko.e2e.support;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One test class at a time on the machine's cgroups under {@code kubepods}: a class that runs
 * containerd (which makes and removes them, and checks that none of its own is left) registers this
 * as a static extension and holds the lock from before its {@code @BeforeAll} to after its
 * {@code @AfterAll}. Test JVMs side by side then never run two such classes at once, whichever JVM
 * takes which class and however long the others take. A file lock, since those JVMs are processes
 * of their own and the cgroups are the machine's.
 */
public final class KubepodsLock implements BeforeAllCallback {
    private static final Path FILE =
            Path.of(System.getProperty("java.io.tmpdir"), "kubepekko-kubepods.lock");

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        FileChannel channel =
                FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                long start = System.nanoTime();
                System.out.println(
                        "[kubepekko e2e] "
                                + context.getDisplayName()
                                + " waits for "
                                + FILE
                                + ": another test JVM runs containerd");
                lock = channel.lock();
                System.out.printf(
                        "[kubepekko e2e] %s got %s after %.1f s%n",
                        context.getDisplayName(), FILE, (System.nanoTime() - start) / 1e9);
            }
            FileLock held = lock;
            context.getStore(ExtensionContext.Namespace.create(KubepodsLock.class))
                    .put(
                            "lock",
                            (ExtensionContext.Store.CloseableResource)
                                    () -> {
                                        held.release();
                                        channel.close();
                                    });
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }
}
