package io.kubepekko.api.admission;

import java.util.Objects;

/**
 * An admission plugin under the name kube's metrics give it ({@code LimitRanger}, {@code
 * ResourceQuota}…); a null name for a check kube makes outside its admission plugins (the RBAC
 * storage's escalation check), which counts in its phase's time but has no series of its own.
 */
public record NamedPlugin<P>(String name, P plugin) {
    public NamedPlugin {
        Objects.requireNonNull(plugin, "plugin");
    }
}
