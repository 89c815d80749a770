package io.kubepekko.bench.floor;

import io.kubepekko.persistence.CborSerializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * The floor's collection: one sharded, event-sourced entity per namespace that keeps its objects'
 * JSON by name. A batch of creates is persisted as one write of its events (as our collection
 * entity writes a batch), then each is answered with its revision. No validation, no conflicts, no
 * watch cache: what any store on this stack must do for a create, and nothing more.
 */
final class FloorCollection
        extends EventSourcedBehavior<
                FloorCollection.Command, FloorCollection.Created, FloorCollection.State> {

    static final EntityTypeKey<Command> KEY =
            EntityTypeKey.create(Command.class, "floor-collection");

    /** The entity's messages. */
    interface Command extends CborSerializable {}

    /**
     * Creates these objects, in order, and answers {@code replyTo} with the last one's revision.
     */
    record Batch(List<Create> creates, ActorRef<Long> replyTo) implements Command {}

    /** Answers {@code replyTo} with the number of objects (recovering the collection first). */
    record Count(ActorRef<Integer> replyTo) implements Command {}

    /** One object to create: its name and JSON. */
    record Create(String name, byte[] json) implements CborSerializable {}

    /** The persisted event of one create. */
    record Created(String name, byte[] json) implements CborSerializable {}

    /** The objects by name, and the collection's revision (one per object created). */
    static final class State {
        final Map<String, byte[]> objects = new HashMap<>();
        long revision;
    }

    FloorCollection(String namespace) {
        super(PersistenceId.of("floor", namespace));
    }

    @Override
    public State emptyState() {
        return new State();
    }

    @Override
    public CommandHandler<Command, Created, State> commandHandler() {
        return newCommandHandlerBuilder()
                .forAnyState()
                .onCommand(
                        Batch.class,
                        (state, batch) ->
                                Effect()
                                        .persist(
                                                batch.creates().stream()
                                                        .map(c -> new Created(c.name(), c.json()))
                                                        .toList())
                                        .thenReply(batch.replyTo(), s -> s.revision))
                .onCommand(
                        Count.class,
                        (state, count) -> Effect().reply(count.replyTo(), state.objects.size()))
                .build();
    }

    @Override
    public EventHandler<State, Created> eventHandler() {
        return newEventHandlerBuilder()
                .forAnyState()
                .onEvent(
                        Created.class,
                        (state, created) -> {
                            state.objects.put(created.name(), created.json());
                            state.revision++;
                            return state;
                        })
                .build();
    }
}
