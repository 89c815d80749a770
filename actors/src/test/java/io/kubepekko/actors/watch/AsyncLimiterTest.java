package io.kubepekko.actors.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.stream.Materializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AsyncLimiterTest {

    private static ActorTestKit kit;

    @BeforeAll
    static void start() {
        kit = ActorTestKit.create();
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void runsAtMostParallelismTasksAtOnceInTheOrderSubmitted() throws Exception {
        AsyncLimiter limiter = new AsyncLimiter(2, 100, Materializer.matFromSystem(kit.system()));
        List<Integer> started = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Integer>> running = new ArrayList<>();
        List<CompletionStage<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            CompletableFuture<Integer> task = new CompletableFuture<>();
            running.add(task);
            int n = i;
            results.add(
                    limiter.submit(
                            () -> {
                                started.add(n);
                                return task;
                            }));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 2);
        assertEquals(List.of(0, 1), started, "two at a time");

        running.get(1).complete(1);
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 3);
        running.get(0).completeExceptionally(new IllegalStateException("failed"));
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 4);
        running.get(2).complete(2);
        running.get(3).complete(3);
        running.get(4).complete(4);

        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 5);
        assertEquals(List.of(0, 1, 2, 3, 4), started);
        assertEquals(1, results.get(1).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(4, results.get(4).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertThrows(
                Exception.class,
                () -> results.get(0).toCompletableFuture().get(5, TimeUnit.SECONDS),
                "a failed task fails its own result only");
    }
}
