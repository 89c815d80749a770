package io.kubepekko.actors.failover;

import com.typesafe.config.Config;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.MailboxType;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.ProducesMessageQueue;
import org.apache.pekko.dispatch.UnboundedMessageQueueSemantics;
import scala.Option;

/**
 * A shard region's mailbox that holds back the next hand-off its coordinator sends, so that a test
 * can send a message into the window Pekko's hand-off loses it in: between the region's {@code
 * BeginHandOff} (it no longer knows where the shard lives, and buffers what is sent to it) and its
 * {@code HandOff} (it drops that buffer). The window is otherwise a network round trip long.
 *
 * <p>Configured for a region's path ({@code pekko.actor.deployment."/sharding/<type>".mailbox}).
 * One hold at a time, for the whole JVM: the test that arms it runs alone.
 */
public final class HeldHandOffMailbox
        implements MailboxType, ProducesMessageQueue<HeldHandOffMailbox.HoldingQueue> {

    private static final String HAND_OFF =
            "org.apache.pekko.cluster.sharding.ShardCoordinator$Internal$HandOff";

    /** A hand-off held back, and where it was going. */
    record Held(ActorRef region, Object handOff, ActorRef sender) {
        /** Delivers it now, behind what was sent to the region meanwhile. */
        void deliver() {
            region.tell(handOff, sender);
        }
    }

    private static final AtomicReference<CompletableFuture<Held>> next = new AtomicReference<>();

    /** Holds back the next hand-off a region with this mailbox is sent. */
    static CompletableFuture<Held> holdNext() {
        CompletableFuture<Held> held = new CompletableFuture<>();
        next.set(held);
        return held;
    }

    /** Holds nothing more. */
    static void disarm() {
        next.set(null);
    }

    /** Pekko's constructor for a configured mailbox type. */
    public HeldHandOffMailbox(ActorSystem.Settings settings, Config config) {}

    @Override
    public MessageQueue create(Option<ActorRef> owner, Option<ActorSystem> system) {
        return new HoldingQueue();
    }

    /** An unbounded queue, but for the hand-off it holds back. */
    public static final class HoldingQueue implements MessageQueue, UnboundedMessageQueueSemantics {
        private final Queue<Envelope> queue = new ConcurrentLinkedQueue<>();

        @Override
        public void enqueue(ActorRef receiver, Envelope handle) {
            if (handle.message().getClass().getName().equals(HAND_OFF)) {
                CompletableFuture<Held> held = next.getAndSet(null);
                if (held != null) {
                    held.complete(new Held(receiver, handle.message(), handle.sender()));
                    return;
                }
            }
            queue.offer(handle);
        }

        @Override
        public Envelope dequeue() {
            return queue.poll();
        }

        @Override
        public int numberOfMessages() {
            return queue.size();
        }

        @Override
        public boolean hasMessages() {
            return !queue.isEmpty();
        }

        @Override
        public void cleanUp(ActorRef owner, MessageQueue deadLetters) {
            for (Envelope e = queue.poll(); e != null; e = queue.poll()) {
                deadLetters.enqueue(owner, e);
            }
        }
    }
}
