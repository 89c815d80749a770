package io.kubepekko.actors;

import io.kubepekko.api.GroupResource;

/**
 * Names one collection: the objects of a group-resource in one namespace ({@code ""} for
 * cluster-scoped kinds). Its string form is the sharding entity id and the persistence id suffix.
 */
public record CollectionId(GroupResource groupResource, String namespace) {

    public CollectionId {
        namespace = namespace == null ? "" : namespace;
    }

    public String entityId() {
        return groupResource + "/" + namespace;
    }

    public static CollectionId parse(String entityId) {
        int bar = entityId.indexOf('/');
        return new CollectionId(
                GroupResource.parse(entityId.substring(0, bar)), entityId.substring(bar + 1));
    }
}
