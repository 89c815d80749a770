package io.kubepekko.agent.probe;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A probe's {@code port}, as the kubelet resolves it ({@code probe.ResolveContainerPort}): a
 * number, or the name of one of the container's {@code ports} (then its {@code containerPort}), or
 * a number written as a string.
 */
public final class ProbePort {
    private ProbePort() {}

    /** The port, or why there is none (the probe then errors, and its result is thrown away). */
    public sealed interface Resolved {
        record Port(int number) implements Resolved {}

        record Invalid(String message) implements Resolved {}
    }

    public static Resolved resolve(JsonNode port, JsonNode container) {
        int number;
        if (port.isIntegralNumber()) {
            number = port.asInt();
        } else if (port.isTextual()) {
            Optional<Integer> named = byName(container, port.asText());
            if (named.isPresent()) {
                number = named.get();
            } else {
                try {
                    number = Integer.parseInt(port.asText());
                } catch (NumberFormatException e) {
                    return new Resolved.Invalid(
                            "strconv.Atoi: parsing \"" + port.asText() + "\": invalid syntax");
                }
            }
        } else {
            return new Resolved.Invalid("intOrString had no kind: " + port);
        }
        return number > 0 && number < 65536
                ? new Resolved.Port(number)
                : new Resolved.Invalid("invalid port number: " + number);
    }

    private static Optional<Integer> byName(JsonNode container, String name) {
        for (JsonNode p : container.path("ports")) {
            if (name.equals(p.path("name").asText(null))) {
                return Optional.of(p.path("containerPort").asInt());
            }
        }
        return Optional.empty();
    }
}
