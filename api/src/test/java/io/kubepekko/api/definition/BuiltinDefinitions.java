package io.kubepekko.api.definition;

import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.table.TablePrinter;

/** Tests' way to a built-in kind's parts by group and kind, through its one definition. */
public final class BuiltinDefinitions {
    private BuiltinDefinitions() {}

    /** The definition of a built-in kind; {@code group} is empty for the core group. */
    public static KindDefinition of(String group, String kind) {
        String g = group == null ? "" : group;
        return BuiltinKinds.all().stream()
                .filter(d -> d.type().group().equals(g) && d.type().kind().equals(kind))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no built-in kind " + kind + "." + g));
    }

    public static Strategy strategy(String group, String kind) {
        return of(group, kind).strategy();
    }

    public static TablePrinter printer(String group, String kind) {
        return of(group, kind).printer();
    }
}
