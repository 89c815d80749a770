package io.kubepekko.persistence;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;

import java.util.concurrent.CompletionStage;

/** Creates the journal and snapshot tables of the embedded profile if they do not exist (idempotent). */
public final class EmbeddedSchema {
    private EmbeddedSchema() {}

    public static CompletionStage<?> createIfNotExists(ActorSystem<?> system) {
        return SchemaUtils.createIfNotExists(system);
    }
}
