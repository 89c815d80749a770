package io.kubepekko.actors;

import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.store.WriteOutcome;

/** A write of a collection's batch: its outcome, before a version is assigned, and the values it plans to claim. */
record PendingWrite(CollectionEntity.Write write, WriteOutcome outcome, ValuePlan plan) {}
