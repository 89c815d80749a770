package io.kubepekko.api.store;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;

/**
 * One write against a collection, as the single writer of that collection executes it. Values only:
 * the decoding of the request has already happened.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "op")
@JsonSubTypes({
    @JsonSubTypes.Type(value = WriteOp.Create.class, name = "create"),
    @JsonSubTypes.Type(value = WriteOp.Update.class, name = "update"),
    @JsonSubTypes.Type(value = WriteOp.Patch.class, name = "patch"),
    @JsonSubTypes.Type(value = WriteOp.Delete.class, name = "delete"),
    @JsonSubTypes.Type(value = WriteOp.CreateSubresource.class, name = "createSubresource")
})
public sealed interface WriteOp {

    WriteOptions options();

    /**
     * Whether a write can bring an object into being, which is what a namespace's admission checks.
     */
    enum Creation {
        /** Never creates. */
        NO,
        /** Always creates (POST): the namespace must exist and not be terminating. */
        YES,
        /**
         * PUT of a kind that creates on update: a terminating namespace refuses, a missing one is
         * left to the write.
         */
        ON_UPDATE,
        /**
         * Server-side apply: creates only when the object is absent, and is then admitted as a
         * create.
         */
        WHEN_ABSENT
    }

    /** How this write may create an object of {@code type}. */
    default Creation creation(ResourceType type) {
        if (this instanceof Create || this instanceof CreateSubresource) {
            return Creation.YES;
        }
        if (this instanceof Update && type.allowCreateOnUpdate()) {
            return Creation.ON_UPDATE;
        }
        if (this instanceof Patch p
                && p.type() == PatchType.APPLY_PATCH
                && p.subresource() == null) {
            return Creation.WHEN_ABSENT;
        }
        return Creation.NO;
    }

    /**
     * The name of the object the write targets; {@code null} for a create that generates its name.
     */
    String targetName();

    /**
     * The resource the request addressed, which admission errors name: {@code type}'s, except for a
     * create forwarded to it by a resource without objects ({@code bindings} for {@code pods}).
     */
    default GroupResource addressed(ResourceType type) {
        return type.groupResource();
    }

    /** POST of a new object. */
    record Create(ObjectNode object, WriteOptions options) implements WriteOp {
        @Override
        public String targetName() {
            return ObjectMeta.name(object);
        }
    }

    /** PUT of a whole object (or of its {@code status} / {@code scale} subresource). */
    record Update(String name, ObjectNode object, String subresource, WriteOptions options)
            implements WriteOp {
        @Override
        public String targetName() {
            return name;
        }
    }

    /**
     * PATCH of an object or subresource; applied to the current object inside the single writer.
     * {@code force} (server-side apply only) takes conflicting fields from their owners.
     */
    record Patch(
            String name,
            PatchType type,
            byte[] patch,
            String subresource,
            WriteOptions options,
            boolean force)
            implements WriteOp {
        public Patch(
                String name,
                PatchType type,
                byte[] patch,
                String subresource,
                WriteOptions options) {
            this(name, type, patch, subresource, options, false);
        }

        @Override
        public String targetName() {
            return name;
        }
    }

    /**
     * DELETE of one object.
     *
     * @param gracePeriodSeconds as the client gave it; null for the kind's (or object's) default
     * @param propagationPolicy the client's policy, or null for the kind's default
     * @param orphanDependents the deprecated flag, or null; never set together with a policy
     */
    record Delete(
            String name,
            Preconditions preconditions,
            WriteOptions options,
            Long gracePeriodSeconds,
            PropagationPolicy propagationPolicy,
            Boolean orphanDependents)
            implements WriteOp {

        /** A delete with the kind's default grace period and propagation. */
        public Delete(String name, Preconditions preconditions, WriteOptions options) {
            this(name, preconditions, options, null, null, null);
        }

        /** A delete of {@code name} with the options of a DELETE request. */
        public static Delete of(String name, DeletionOptions d) {
            return new Delete(
                    name,
                    d.preconditions(),
                    new WriteOptions(d.dryRun(), null, FieldValidation.IGNORE),
                    d.gracePeriodSeconds(),
                    d.propagationPolicy(),
                    d.orphanDependents());
        }

        @Override
        public String targetName() {
            return name;
        }
    }

    /**
     * POST of a subresource that acts on an existing object ({@code pods/{name}/binding}; see
     * {@link io.kubepekko.api.registry.SubresourceCreate}), or of a resource without objects that
     * forwards its creates there ({@code bindings}).
     *
     * @param name the object's name: the URL's, or for a forwarded create the body's ("" when it
     *     has none)
     * @param subresource the subresource that acts, e.g. {@code binding}
     * @param body the request's object (a Binding), decoded
     * @param forwardedFrom the resource the request addressed when it was forwarded (e.g. {@code
     *     bindings}), else {@code null}
     */
    record CreateSubresource(
            String name,
            String subresource,
            ObjectNode body,
            String forwardedFrom,
            WriteOptions options)
            implements WriteOp {
        @Override
        public String targetName() {
            return name;
        }

        @Override
        public GroupResource addressed(ResourceType type) {
            return forwardedFrom == null
                    ? type.groupResource()
                    : new GroupResource(type.group(), forwardedFrom);
        }
    }
}
