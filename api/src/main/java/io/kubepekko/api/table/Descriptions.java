package io.kubepekko.api.table;

/** Column descriptions shared by many kinds: the API documentation of the fields they show. */
public final class Descriptions {
    private Descriptions() {}

    public static final String NAME =
            "Name must be unique within a namespace. Is required when creating resources, "
                    + "although some resources may allow a client to request the generation of an appropriate name "
                    + "automatically. Name is primarily intended for creation idempotence and configuration definition. "
                    + "Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

    public static final String CREATION_TIMESTAMP =
            "CreationTimestamp is a timestamp representing the server time "
                    + "when this object was created. It is not guaranteed to be set in happens-before order across separate "
                    + "operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n"
                    + "Populated by the system. Read-only. Null for lists. More info: "
                    + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
}
