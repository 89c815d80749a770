package io.kubepekko.bench;

import java.util.Locale;

/** One measured cell of the apply benchmark: how each request changes a pooled Deployment. */
enum ApplyCell {
    /** Server-side apply of the whole object by one manager. */
    APPLY_ONE("apply, 1 manager", "a1"),
    /** Server-side apply of one of five disjoint parts, each by its own manager. */
    APPLY_FIVE("apply, 5 managers", "a5"),
    /** PUT of the whole object with the resourceVersion the last write returned: the baseline. */
    UPDATE("update (PUT)", "put"),
    /** JSON merge patch of the one changed annotation: the cheapest write of the same change. */
    MERGE_PATCH("merge patch", "mp");

    private final String label;
    private final String tag;

    ApplyCell(String label, String tag) {
        this.label = label;
        this.tag = tag;
    }

    /** The cell's name in progress lines and the report. */
    String label() {
        return label;
    }

    /** Short infix of the cell's pool object names: each cell has its own pool. */
    String tag() {
        return tag;
    }

    /** The name on the command line: apply-1, apply-5, update, merge-patch. */
    String flag() {
        return switch (this) {
            case APPLY_ONE -> "apply-1";
            case APPLY_FIVE -> "apply-5";
            default -> name().toLowerCase(Locale.ROOT).replace('_', '-');
        };
    }

    static ApplyCell fromFlag(String flag) {
        for (ApplyCell cell : values()) {
            if (cell.flag().equals(flag.trim())) {
                return cell;
            }
        }
        throw new IllegalArgumentException(
                "--cells: unknown cell "
                        + flag.trim()
                        + " (expected apply-1, apply-5, update or merge-patch)");
    }
}
