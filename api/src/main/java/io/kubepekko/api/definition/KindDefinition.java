package io.kubepekko.api.definition;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SelectableField;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.registry.VersionConversion;
import io.kubepekko.api.table.TablePrinter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one kind is, as one value: its registry entry (names, scope, verbs, subresources, selectable
 * fields, and the {@link Strategy} by which its writes differ from the generic store's, which also
 * names the cluster-unique values its objects hold) and its Table printer. The {@link Registry}
 * holds these; built-in kinds come from {@link BuiltinKinds}, and custom resources will be
 * registered the same way at run time.
 *
 * <p>A definition is one served version. Most are also their kind's storage version ({@code
 * storedIn} null): objects are stored as they are served. A version whose objects are stored under
 * another definition (events.k8s.io/v1 Events in core/v1's collections) names that group-resource
 * and the conversion between the two forms ({@link StoredIn}); its writes then run through the
 * storage definition's strategy, told which version the request used.
 *
 * <p>A definition is checked when it is made ({@link #problems()}): a part that contradicts another
 * (a {@code scale} subresource without a scale spec, an alias to a label the kind does not select
 * on) refuses it, so an incomplete kind fails the server's start rather than a request.
 *
 * @param storedIn where the objects of this version are stored, when not as this version; null for
 *     a storage version
 * @param lifecycle the version's stability track and, for a prerelease version, when it was
 *     introduced, deprecated and removed ({@link #withLifecycle}); a GA version has none
 */
public record KindDefinition(
        ResourceType type, TablePrinter printer, StoredIn storedIn, VersionLifecycle lifecycle) {

    private static final String NAME = "metadata.name";
    private static final String NAMESPACE = "metadata.namespace";

    /**
     * Where a served version's objects are stored: the group-resource whose storage version holds
     * them, and how an object of this version becomes that version's and back.
     */
    public record StoredIn(GroupResource resource, VersionConversion conversion) {
        public StoredIn {
            Objects.requireNonNull(resource, "resource");
            Objects.requireNonNull(conversion, "conversion");
        }
    }

    /** A storage version: its objects are stored as it serves them. */
    public KindDefinition(ResourceType type, TablePrinter printer) {
        this(type, printer, null);
    }

    /** A version without lifecycle tags (GA, or a custom resource's). */
    public KindDefinition(ResourceType type, TablePrinter printer, StoredIn storedIn) {
        this(type, printer, storedIn, null);
    }

    public KindDefinition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(printer, () -> type.kind() + " lacks a Table printer");
        if (lifecycle == null) {
            lifecycle = VersionLifecycle.untagged(type.version());
        }
        List<String> problems = problems(type, printer);
        if (lifecycle.track() != VersionLifecycle.Track.of(type.version())) {
            problems.add("its lifecycle's track is not the one of version " + type.version());
        }
        if (storedIn != null && !type.stored()) {
            problems.add("a version without objects of its own is stored nowhere");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    type.kind()
                            + "."
                            + type.group()
                            + " is incomplete: "
                            + String.join("; ", problems));
        }
    }

    /**
     * A built-in kind from its parts: the entry (without its strategy), how it differs from the
     * generic store and how it prints. Every part is named, even where it is the generic one, so
     * that a kind cannot be added with one forgotten.
     */
    public static KindDefinition builtin(
            ResourceType.Builder entry, Strategy strategy, TablePrinter printer) {
        Objects.requireNonNull(strategy, "strategy");
        return new KindDefinition(entry.builtin().strategy(strategy).build(), printer);
    }

    /**
     * A built-in version whose objects are stored as another version of the kind: the entry (its
     * names and selectable fields as this version spells them), where and how its objects are
     * stored, and how it prints. It has no strategy of its own: its writes are the storage
     * version's, told the version they were made in.
     */
    public static KindDefinition servedVersion(
            ResourceType.Builder entry,
            GroupResource storedIn,
            VersionConversion conversion,
            TablePrinter printer) {
        return new KindDefinition(
                entry.builtin().build(), printer, new StoredIn(storedIn, conversion));
    }

    /**
     * This version with the lifecycle its type's {@code +k8s:prerelease-lifecycle-gen} tags give
     * it.
     */
    public KindDefinition withLifecycle(VersionLifecycle tags) {
        return new KindDefinition(type, printer, storedIn, tags);
    }

    /** Whether objects of this version are stored as they are served. */
    public boolean isStorageVersion() {
        return storedIn == null;
    }

    public Strategy strategy() {
        return type.strategy();
    }

    /** Every subresource, {@code status} and {@code scale} included. */
    public Set<String> subresources() {
        return type.subresources();
    }

    public List<SelectableField> selectableFields() {
        return type.selectableFields();
    }

    /** The cluster-unique values (cluster IPs, node ports) this kind's objects claim, if any. */
    public Optional<ClusterValues> clusterValues() {
        return Optional.ofNullable(type.strategy().clusterValues());
    }

    /** What contradicts what in a definition's parts; empty when it is complete. */
    static List<String> problems(ResourceType type, TablePrinter printer) {
        List<String> out = new ArrayList<>();
        if (printer.columns().isEmpty()) {
            out.add("its Table printer has no columns");
        }
        if (type.subresources().contains("scale") != (type.scale() != null)) {
            out.add(
                    "a scale subresource needs a scale spec and a scale spec the scale subresource");
        }
        Set<String> labels = new HashSet<>();
        for (SelectableField field : type.selectableFields()) {
            if (field.label().equals(NAME) || field.label().equals(NAMESPACE)) {
                out.add("selectable field " + field.label() + " is implied, not listed");
            } else if (!labels.add(field.label())) {
                out.add("selectable field " + field.label() + " is listed twice");
            }
        }
        type.fieldLabelAliases()
                .forEach(
                        (old, label) -> {
                            if (!labels.contains(label)) {
                                out.add(
                                        "field label alias "
                                                + old
                                                + " names "
                                                + label
                                                + ", which is not a selectable field");
                            }
                        });
        if (type.forwardedCreate() != null && type.strategy().clusterValues() != null) {
            out.add("a resource without objects of its own holds no cluster values");
        }
        return out;
    }
}
