package io.kubepekko.api.definition;

import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SelectableField;
import io.kubepekko.api.registry.Strategy;
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
 * <p>A definition is checked when it is made ({@link #problems()}): a part that contradicts another
 * (a {@code scale} subresource without a scale spec, an alias to a label the kind does not select
 * on) refuses it, so an incomplete kind fails the server's start rather than a request.
 */
public record KindDefinition(ResourceType type, TablePrinter printer) {

    private static final String NAME = "metadata.name";
    private static final String NAMESPACE = "metadata.namespace";

    public KindDefinition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(printer, () -> type.kind() + " lacks a Table printer");
        List<String> problems = problems(type, printer);
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
