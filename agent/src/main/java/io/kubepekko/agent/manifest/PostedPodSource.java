package io.kubepekko.agent.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The third static pod source: manifests posted to the agent's own server ({@code
 * server/AgentServer}), stored in {@link PostedManifests} so they run again after a restart. On
 * start it reads what is stored and sends the set (the pod manager waits for it before removing
 * orphans); each accepted change sends the whole set again. A manifest is parsed before it is
 * stored: a bad one is refused and nothing changes.
 */
public final class PostedPodSource {
    private PostedPodSource() {}

    /** The source's protocol: what the server asks of it. */
    public sealed interface Command {}

    /**
     * Store {@code body} as the manifest {@code name} (replacing one of that name) and run its
     * pods.
     */
    public record Put(String name, byte[] body, ActorRef<Outcome> replyTo) implements Command {}

    /** Remove the manifest {@code name}: its pods stop. */
    public record Delete(String name, ActorRef<Outcome> replyTo) implements Command {}

    /** The stored manifests' names. */
    public record ListNames(ActorRef<Outcome> replyTo) implements Command {}

    /** The answer to a {@link Command}. */
    public sealed interface Outcome {
        /** Stored; {@code created} when no manifest of that name was there. */
        record Stored(boolean created, List<ObjectNode> pods) implements Outcome {
            public Stored {
                pods = List.copyOf(pods);
            }
        }

        record Deleted() implements Outcome {}

        /** No manifest of that name. */
        record Missing() implements Outcome {}

        /** Not stored: the manifest cannot run. */
        record Refused(ManifestError error) implements Outcome {}

        record Names(List<String> names) implements Outcome {
            public Names {
                names = List.copyOf(names);
            }
        }

        /**
         * Not stored: its pod {@code pod} ({@code namespace/name}) is already in the posted
         * manifest {@code manifest} (one static pod per full name: the kubelet would ignore the
         * second).
         */
        record Duplicate(String pod, String manifest) implements Outcome {}

        /** The store could not be written: nothing changed. */
        record Failed(String reason) implements Outcome {}
    }

    /** The source over {@code store}, accepting manifests of at most {@code limit} bytes. */
    public static Behavior<Command> create(
            PostedManifests store,
            String nodeName,
            Clock clock,
            Consumer<StaticPodSet> target,
            int limit) {
        return Behaviors.setup(
                ctx -> {
                    Map<String, List<ObjectNode>> pods = load(ctx, store, nodeName, clock, limit);
                    send(pods, target);
                    return Behaviors.receive(Command.class)
                            .onMessage(
                                    Put.class,
                                    put -> {
                                        put.replyTo()
                                                .tell(
                                                        onPut(
                                                                ctx, store, put, nodeName, clock,
                                                                limit, pods, target));
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Delete.class,
                                    delete -> {
                                        delete.replyTo()
                                                .tell(
                                                        onDelete(
                                                                ctx,
                                                                store,
                                                                delete.name(),
                                                                pods,
                                                                target));
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    ListNames.class,
                                    list -> {
                                        Outcome names;
                                        try {
                                            names = new Outcome.Names(store.names());
                                        } catch (IOException e) {
                                            names =
                                                    new Outcome.Failed(
                                                            "the manifests could not be listed: "
                                                                    + e.getMessage());
                                        }
                                        list.replyTo().tell(names);
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }

    private static Outcome onPut(
            ActorContext<Command> ctx,
            PostedManifests store,
            Put put,
            String nodeName,
            Clock clock,
            int limit,
            Map<String, List<ObjectNode>> pods,
            Consumer<StaticPodSet> target) {
        ManifestOrigin origin = ManifestOrigin.posted(put.name());
        if (put.body().length > limit) {
            return new Outcome.Refused(
                    new ManifestError(
                            origin, BoundedBytes.tooLarge(limit), ManifestError.Problem.TOO_LARGE));
        }
        ManifestResult parsed =
                StaticPodManifests.parse(put.body(), origin, nodeName, clock.instant());
        if (parsed instanceof ManifestResult.Invalid invalid) {
            return new Outcome.Refused(invalid.error());
        }
        List<ObjectNode> manifestPods = ((ManifestResult.Pods) parsed).pods();
        Optional<Outcome.Duplicate> duplicate = duplicate(put.name(), manifestPods, pods);
        if (duplicate.isPresent()) {
            return duplicate.get();
        }
        boolean created;
        try {
            created = store.put(put.name(), put.body());
        } catch (IOException e) {
            ctx.getLog()
                    .error(
                            "posted static pod manifest {} not stored: {}",
                            put.name(),
                            e.toString());
            return new Outcome.Failed("the manifest could not be stored: " + e.getMessage());
        }
        ctx.getLog()
                .info(
                        "posted static pod manifest {} {} ({} pods)",
                        put.name(),
                        created ? "stored" : "replaced",
                        manifestPods.size());
        pods.put(put.name(), manifestPods);
        send(pods, target);
        return new Outcome.Stored(created, manifestPods);
    }

    /**
     * The first of {@code manifestPods} whose full name another posted manifest (or this one,
     * twice) has.
     */
    private static Optional<Outcome.Duplicate> duplicate(
            String name, List<ObjectNode> manifestPods, Map<String, List<ObjectNode>> pods) {
        Map<String, String> owners = new HashMap<>();
        pods.forEach(
                (manifest, its) -> {
                    if (!manifest.equals(name)) {
                        its.forEach(pod -> owners.putIfAbsent(fullName(pod), manifest));
                    }
                });
        for (ObjectNode pod : manifestPods) {
            String owner = owners.putIfAbsent(fullName(pod), name);
            if (owner != null) {
                return Optional.of(new Outcome.Duplicate(fullName(pod), owner));
            }
        }
        return Optional.empty();
    }

    private static String fullName(ObjectNode pod) {
        return pod.path("metadata").path("namespace").asText("")
                + "/"
                + pod.path("metadata").path("name").asText("");
    }

    private static Outcome onDelete(
            ActorContext<Command> ctx,
            PostedManifests store,
            String name,
            Map<String, List<ObjectNode>> pods,
            Consumer<StaticPodSet> target) {
        boolean existed;
        try {
            existed = store.delete(name);
        } catch (IOException e) {
            ctx.getLog().error("posted static pod manifest {} not removed: {}", name, e.toString());
            return new Outcome.Failed("the manifest could not be removed: " + e.getMessage());
        }
        // A stored file that could not run has no pods but is still a manifest to remove.
        if (!existed && !pods.containsKey(name)) {
            return new Outcome.Missing();
        }
        ctx.getLog().info("posted static pod manifest {} removed", name);
        pods.remove(name);
        send(pods, target);
        return new Outcome.Deleted();
    }

    /**
     * What is stored: each manifest's pods; one that cannot run is logged and runs nothing, as a
     * bad file.
     */
    private static Map<String, List<ObjectNode>> load(
            ActorContext<Command> ctx,
            PostedManifests store,
            String nodeName,
            Clock clock,
            int limit) {
        Map<String, List<ObjectNode>> pods = new TreeMap<>();
        try {
            for (Path leftover : store.leftovers()) {
                Files.deleteIfExists(leftover);
            }
            for (String name : store.names()) {
                ManifestOrigin origin = ManifestOrigin.posted(name);
                Optional<byte[]> data = store.read(name, limit);
                ManifestResult r =
                        data.isEmpty()
                                ? new ManifestResult.Invalid(
                                        new ManifestError(
                                                origin,
                                                BoundedBytes.tooLarge(limit),
                                                ManifestError.Problem.TOO_LARGE))
                                : StaticPodManifests.parse(
                                        data.get(), origin, nodeName, clock.instant());
                if (r instanceof ManifestResult.Pods p) {
                    pods.put(name, p.pods());
                } else if (r instanceof ManifestResult.Invalid invalid) {
                    ctx.getLog().warn("static pod manifest not run: {}", invalid.error());
                }
            }
        } catch (IOException e) {
            ctx.getLog()
                    .warn(
                            "posted static pod manifests in {} not read: {}",
                            store.directory(),
                            e.toString());
        }
        ctx.getLog()
                .info("posted static pod manifests in {}: {}", store.directory(), pods.keySet());
        return pods;
    }

    private static void send(Map<String, List<ObjectNode>> pods, Consumer<StaticPodSet> target) {
        List<ObjectNode> all = new ArrayList<>();
        pods.values().forEach(all::addAll);
        target.accept(new StaticPodSet(ManifestOrigin.Kind.SERVER, all));
    }
}
