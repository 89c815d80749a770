package io.kubepekko.api.table;

import java.util.HashMap;
import java.util.Map;

/**
 * The Table printers of the built-in kinds, by group and kind; kinds without one print with
 * {@link TablePrinter#DEFAULT}. The entries live beside the printers, one map per family of kinds.
 */
public final class TablePrinters {
    private TablePrinters() {}

    private static final Map<String, TablePrinter> BY_KIND = new HashMap<>();

    static {
        BY_KIND.putAll(CorePrinters.ALL);
        BY_KIND.putAll(ConfigPrinters.ALL);
        BY_KIND.putAll(WorkloadPrinters.ALL);
        BY_KIND.putAll(ClusterPrinters.ALL);
    }

    /** The printer of a kind; {@code group} is empty for the core group. */
    public static TablePrinter of(String group, String kind) {
        return BY_KIND.getOrDefault((group == null ? "" : group) + "/" + kind, TablePrinter.DEFAULT);
    }
}
