package io.kubepekko.http.server;

import io.kubepekko.api.admission.tolerations.DefaultTolerationSeconds;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;

/**
 * The admission plugins' flags, as kube-apiserver's (the DefaultTolerationSeconds plugin's two),
 * listed in {@link ApiServerFlags#FLAGS}.
 */
final class AdmissionFlags {
    private AdmissionFlags() {}

    static final Flag<Long> DEFAULT_NOT_READY_TOLERATION_SECONDS =
            new Flag<>(
                    "default-not-ready-toleration-seconds",
                    "int",
                    "300",
                    "Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is"
                            + " added by default to every pod that does not already have such a"
                            + " toleration.",
                    false,
                    false,
                    Flag.last(AdmissionFlags::int64));
    static final Flag<Long> DEFAULT_UNREACHABLE_TOLERATION_SECONDS =
            new Flag<>(
                    "default-unreachable-toleration-seconds",
                    "int",
                    "300",
                    "Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that"
                            + " is added by default to every pod that does not already have such a"
                            + " toleration.",
                    false,
                    false,
                    Flag.last(AdmissionFlags::int64));

    /** The DefaultTolerationSeconds plugin the flags configure. */
    static DefaultTolerationSeconds tolerations(FlagSet.Parsed.Values v) {
        return new DefaultTolerationSeconds(
                v.get(DEFAULT_NOT_READY_TOLERATION_SECONDS),
                v.get(DEFAULT_UNREACHABLE_TOLERATION_SECONDS));
    }

    private static long int64(String value) throws Flag.InvalidValue {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new Flag.InvalidValue(
                    value, "strconv.ParseInt: parsing \"" + value + "\": invalid syntax");
        }
    }
}
