package io.kubepekko.api.auth.authorizer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One entry of {@code --authorization-mode}, kube-apiserver's ordered, comma-separated list of
 * authorizers. kube also knows {@code ABAC} and {@code Webhook}; this server does not offer them,
 * and says so rather than calling them invalid.
 */
public enum AuthorizationMode {
    ALWAYS_ALLOW("AlwaysAllow"),
    ALWAYS_DENY("AlwaysDeny"),
    NODE("Node"),
    RBAC("RBAC");

    /** The default: nodes through the node authorizer, everyone else through RBAC. */
    public static final List<AuthorizationMode> DEFAULT = List.of(NODE, RBAC);

    private static final Set<String> KNOWN_TO_KUBE_ONLY = Set.of("ABAC", "Webhook");

    private final String flagValue;

    AuthorizationMode(String flagValue) {
        this.flagValue = flagValue;
    }

    /** The name as written in the flag. */
    public String flagValue() {
        return flagValue;
    }

    /**
     * Parses the flag's value, or answers the first problem in kube's words ({@code
     * authorization-mode "Foo" is not a valid mode}).
     */
    public static Parsed parse(String value) {
        List<String> names = value.isEmpty() ? List.of() : List.of(value.split(",", -1));
        if (names.isEmpty()) {
            return new Parsed(
                    List.of(), Optional.of("at least one authorization-mode must be passed"));
        }
        List<AuthorizationMode> modes = new ArrayList<>();
        for (String name : names) {
            Optional<AuthorizationMode> mode = named(name);
            if (mode.isEmpty()) {
                String why =
                        KNOWN_TO_KUBE_ONLY.contains(name)
                                ? "authorization-mode \""
                                        + name
                                        + "\" is not supported by this server"
                                : "authorization-mode \"" + name + "\" is not a valid mode";
                return new Parsed(List.of(), Optional.of(why));
            }
            modes.add(mode.get());
        }
        if (new LinkedHashSet<>(modes).size() != modes.size()) {
            return new Parsed(
                    List.of(),
                    Optional.of(
                            "authorization-mode ["
                                    + String.join(
                                            " ", names.stream().map(n -> "\"" + n + "\"").toList())
                                    + "] has mode specified more than once"));
        }
        return new Parsed(modes, Optional.empty());
    }

    private static Optional<AuthorizationMode> named(String name) {
        for (AuthorizationMode m : values()) {
            if (m.flagValue.equals(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /**
     * The flag's modes, or the problem with it.
     *
     * @param modes the modes in order, empty when there is a problem
     * @param problem the one-line message, when the value is refused
     */
    public record Parsed(List<AuthorizationMode> modes, Optional<String> problem) {
        public Parsed {
            modes = List.copyOf(modes);
        }
    }
}
