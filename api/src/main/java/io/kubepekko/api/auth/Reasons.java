package io.kubepekko.api.auth;

import java.util.List;

/** Joins several authenticators' reasons as kube's error aggregate prints them. */
final class Reasons {
    private Reasons() {}

    /** One reason alone; several as {@code [a, b]}. */
    static String aggregate(List<String> reasons) {
        return reasons.size() == 1 ? reasons.get(0) : "[" + String.join(", ", reasons) + "]";
    }
}
