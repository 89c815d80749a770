package io.kubepekko.actors.entity;

import io.kubepekko.persistence.CborSerializable;

/** Events of {@link CollectionEntity}; facts, never renamed. */
public sealed interface CollectionEvent extends CborSerializable permits ObjectChanged {}
