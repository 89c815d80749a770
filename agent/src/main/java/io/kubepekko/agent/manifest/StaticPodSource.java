package io.kubepekko.agent.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;

/**
 * A static pod source as an actor: {@code --pod-manifest-path} (a directory, not recursed into, dot
 * files ignored; or one file) re-read every {@code --file-check-frequency} and whenever the file
 * system reports a change there; or {@code --manifest-url} fetched every {@code
 * --http-check-frequency} with the {@code --manifest-url-header}s. Each read hands the source's
 * whole {@link StaticPodSet} on. A bad manifest file is logged and left out (its pod stops, as in
 * the kubelet); the others run. A URL that cannot be fetched or parsed sends nothing (its pods keep
 * running). Files and bodies over {@link BoundedBytes#MAX_MANIFEST_BYTES} are refused as bad
 * manifests without being read whole (the kubelet reads them whole; a hostile URL or file must not
 * fill the heap).
 */
public final class StaticPodSource {
    private StaticPodSource() {}

    /** The source's protocol (its own timer and watcher). */
    public sealed interface Command {}

    private record Read() implements Command {}

    private record Fetched(ManifestResult result, String failure) implements Command {}

    private static final Read READ = new Read();

    /** The file source of {@code path}. */
    public static Behavior<Command> files(
            Path path,
            Duration period,
            String nodeName,
            Clock clock,
            Consumer<StaticPodSet> target) {
        return files(path, period, nodeName, clock, target, BoundedBytes.MAX_MANIFEST_BYTES);
    }

    /** The file source of {@code path}, reading files of at most {@code limit} bytes. */
    public static Behavior<Command> files(
            Path path,
            Duration period,
            String nodeName,
            Clock clock,
            Consumer<StaticPodSet> target,
            int limit) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers -> {
                                    timers.startTimerWithFixedDelay(READ, period);
                                    WatchService watcher = watch(ctx, path);
                                    List<String> lastErrors = new ArrayList<>();
                                    ctx.getSelf().tell(READ);
                                    return Behaviors.receive(Command.class)
                                            .onMessage(
                                                    Read.class,
                                                    r -> {
                                                        List<ObjectNode> pods = new ArrayList<>();
                                                        List<String> errors = new ArrayList<>();
                                                        readPath(
                                                                path, nodeName, clock, pods, errors,
                                                                limit);
                                                        if (!errors.equals(lastErrors)) {
                                                            errors.forEach(
                                                                    e ->
                                                                            ctx.getLog()
                                                                                    .warn(
                                                                                            "static pod manifest not run: {}",
                                                                                            e));
                                                            lastErrors.clear();
                                                            lastErrors.addAll(errors);
                                                        }
                                                        target.accept(
                                                                new StaticPodSet(
                                                                        ManifestOrigin.Kind.FILE,
                                                                        pods));
                                                        return Behaviors.same();
                                                    })
                                            .onSignal(
                                                    PostStop.class,
                                                    s -> {
                                                        if (watcher != null) {
                                                            try {
                                                                watcher.close();
                                                            } catch (IOException ignored) {
                                                                // closing on stop: nothing left to
                                                                // do
                                                            }
                                                        }
                                                        return Behaviors.same();
                                                    })
                                            .build();
                                }));
    }

    /**
     * The URL source: {@code headers} are sent with every request, each name with its values in
     * order.
     */
    public static Behavior<Command> url(
            URI url,
            Map<String, List<String>> headers,
            Duration period,
            String nodeName,
            Clock clock,
            Consumer<StaticPodSet> target) {
        return url(url, headers, period, nodeName, clock, target, BoundedBytes.MAX_MANIFEST_BYTES);
    }

    /** The URL source, reading bodies of at most {@code limit} bytes. */
    public static Behavior<Command> url(
            URI url,
            Map<String, List<String>> headers,
            Duration period,
            String nodeName,
            Clock clock,
            Consumer<StaticPodSet> target,
            int limit) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers -> {
                                    timers.startTimerWithFixedDelay(READ, period);
                                    HttpClient http =
                                            HttpClient.newBuilder()
                                                    .connectTimeout(Duration.ofSeconds(10))
                                                    .build();
                                    ManifestOrigin origin = ManifestOrigin.url(url);
                                    String[] lastFailure = {""};
                                    boolean[] inFlight = {false};
                                    ctx.getSelf().tell(READ);
                                    return Behaviors.receive(Command.class)
                                            .onMessage(
                                                    Read.class,
                                                    r -> {
                                                        if (!inFlight[0]) {
                                                            inFlight[0] = true;
                                                            ctx.pipeToSelf(
                                                                    fetch(
                                                                            http, url, headers,
                                                                            limit),
                                                                    (resp, t) ->
                                                                            t != null
                                                                                    ? new Fetched(
                                                                                            null,
                                                                                            origin
                                                                                                    + ": "
                                                                                                    + t)
                                                                                    : resp
                                                                                                            .statusCode()
                                                                                                    != 200
                                                                                            ? new Fetched(
                                                                                                    null,
                                                                                                    origin
                                                                                                            + ": "
                                                                                                            + resp
                                                                                                                    .statusCode()
                                                                                                            + " from the server")
                                                                                            : resp.body()
                                                                                                            .isEmpty()
                                                                                                    ? new Fetched(
                                                                                                            new ManifestResult
                                                                                                                    .Invalid(
                                                                                                                    new ManifestError(
                                                                                                                            origin,
                                                                                                                            BoundedBytes
                                                                                                                                    .tooLarge(
                                                                                                                                            limit),
                                                                                                                            ManifestError
                                                                                                                                    .Problem
                                                                                                                                    .TOO_LARGE)),
                                                                                                            "")
                                                                                                    : resp.body()
                                                                                                                            .get()
                                                                                                                            .length
                                                                                                                    == 0
                                                                                                            ? new Fetched(
                                                                                                                    new ManifestResult
                                                                                                                            .Pods(
                                                                                                                            List
                                                                                                                                    .of()),
                                                                                                                    "")
                                                                                                            : new Fetched(
                                                                                                                    StaticPodManifests
                                                                                                                            .parse(
                                                                                                                                    resp.body()
                                                                                                                                            .get(),
                                                                                                                                    origin,
                                                                                                                                    nodeName,
                                                                                                                                    clock
                                                                                                                                            .instant()),
                                                                                                                    ""));
                                                        }
                                                        return Behaviors.same();
                                                    })
                                            .onMessage(
                                                    Fetched.class,
                                                    f -> {
                                                        inFlight[0] = false;
                                                        String failure = f.failure();
                                                        if (f.result()
                                                                instanceof
                                                                ManifestResult.Invalid invalid) {
                                                            failure = invalid.error().toString();
                                                        }
                                                        if (!failure.equals(lastFailure[0])
                                                                && !failure.isEmpty()) {
                                                            ctx.getLog()
                                                                    .warn(
                                                                            "static pods from the manifest URL not read: {}",
                                                                            failure);
                                                        }
                                                        lastFailure[0] = failure;
                                                        if (f.result()
                                                                instanceof
                                                                ManifestResult.Pods pods) {
                                                            target.accept(
                                                                    new StaticPodSet(
                                                                            ManifestOrigin.Kind
                                                                                    .HTTP,
                                                                            pods.pods()));
                                                        }
                                                        return Behaviors.same();
                                                    })
                                            .build();
                                }));
    }

    private static CompletionStage<HttpResponse<Optional<byte[]>>> fetch(
            HttpClient http, URI url, Map<String, List<String>> headers, int limit) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).GET();
        headers.forEach((name, values) -> values.forEach(v -> request.header(name, v)));
        return http.sendAsync(request.build(), BoundedBytes.bodyHandler(limit));
    }

    /**
     * The kubelet's {@code extractFromPath}: a missing path is an empty set; a bad file is an
     * error, not a stop.
     */
    static void readPath(
            Path path,
            String nodeName,
            Clock clock,
            List<ObjectNode> pods,
            List<String> errors,
            int limit) {
        if (Files.isDirectory(path)) {
            List<Path> files;
            try (Stream<Path> s = Files.list(path)) {
                files =
                        s.filter(p -> !p.getFileName().toString().startsWith("."))
                                .sorted()
                                .toList();
            } catch (IOException e) {
                errors.add(ManifestOrigin.file(path) + ": " + e);
                return;
            }
            for (Path f : files) {
                if (Files.isRegularFile(f)) {
                    readFile(f, nodeName, clock, pods, errors, limit);
                }
            }
        } else if (Files.isRegularFile(path)) {
            readFile(path, nodeName, clock, pods, errors, limit);
        }
    }

    private static void readFile(
            Path file,
            String nodeName,
            Clock clock,
            List<ObjectNode> pods,
            List<String> errors,
            int limit) {
        ManifestOrigin origin = ManifestOrigin.file(file);
        Optional<byte[]> data;
        try {
            data = BoundedBytes.readFile(file, limit);
        } catch (IOException e) {
            errors.add(origin + ": " + e);
            return;
        }
        if (data.isEmpty()) {
            errors.add(
                    new ManifestError(
                                    origin,
                                    BoundedBytes.tooLarge(limit),
                                    ManifestError.Problem.TOO_LARGE)
                            .toString());
            return;
        }
        ManifestResult r = StaticPodManifests.parse(data.get(), origin, nodeName, clock.instant());
        if (r instanceof ManifestResult.Pods p) {
            pods.addAll(p.pods());
        } else if (r instanceof ManifestResult.Invalid invalid) {
            errors.add(invalid.error().toString());
        }
    }

    /**
     * A daemon thread turning file-system events at {@code path} (or its parent, for a file) into
     * reads.
     */
    private static WatchService watch(ActorContext<Command> ctx, Path path) {
        Path dir = Files.isDirectory(path) ? path : path.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return null; // not there yet: the periodic read finds it
        }
        Logger log = ctx.getLog();
        try {
            WatchService watcher = dir.getFileSystem().newWatchService();
            dir.register(
                    watcher,
                    StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_DELETE,
                    StandardWatchEventKinds.ENTRY_MODIFY);
            var self = ctx.getSelf();
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    while (true) {
                                        var key = watcher.take();
                                        key.pollEvents();
                                        self.tell(READ);
                                        if (!key.reset()) {
                                            return;
                                        }
                                    }
                                } catch (InterruptedException | ClosedWatchServiceException e) {
                                    // the source stopped
                                }
                            },
                            "static-pod-watch");
            t.setDaemon(true);
            t.start();
            return watcher;
        } catch (IOException e) {
            log.warn("cannot watch {} ({}): it is re-read every period only", dir, e.toString());
            return null;
        }
    }
}
