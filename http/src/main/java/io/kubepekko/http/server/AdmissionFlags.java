package io.kubepekko.http.server;

import io.kubepekko.api.admission.AdmissionPluginSelection;
import io.kubepekko.api.admission.tolerations.DefaultTolerationSeconds;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The admission flags, as kube-apiserver's: which plugins run, and the DefaultTolerationSeconds
 * plugin's two; listed in {@link ApiServerFlags#FLAGS}.
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

    static final Flag<List<String>> ENABLE_ADMISSION_PLUGINS =
            new Flag<>(
                    "enable-admission-plugins",
                    "strings",
                    "",
                    "admission plugins that should be enabled in addition to default enabled ones."
                            + " Comma-delimited list of admission plugins: "
                            + String.join(", ", AdmissionPluginSelection.registered())
                            + ". The order of plugins in this flag does not matter.",
                    false,
                    true,
                    AdmissionFlags::names);
    static final Flag<List<String>> DISABLE_ADMISSION_PLUGINS =
            new Flag<>(
                    "disable-admission-plugins",
                    "strings",
                    "",
                    "admission plugins that should be disabled although they are in the default"
                            + " enabled plugins list. Comma-delimited list of admission plugins: "
                            + String.join(", ", AdmissionPluginSelection.registered())
                            + ". The order of plugins in this flag does not matter.",
                    false,
                    true,
                    AdmissionFlags::names);

    /** The plugins that run and the DefaultTolerationSeconds plugin's settings. */
    static AdmissionSettings settings(FlagSet.Parsed.Values v)
            throws ApiServerFlags.UsageException {
        try {
            return new AdmissionSettings(
                    AdmissionPluginSelection.of(
                            v.get(ENABLE_ADMISSION_PLUGINS), v.get(DISABLE_ADMISSION_PLUGINS)),
                    new DefaultTolerationSeconds(
                            v.get(DEFAULT_NOT_READY_TOLERATION_SECONDS),
                            v.get(DEFAULT_UNREACHABLE_TOLERATION_SECONDS)));
        } catch (AdmissionPluginSelection.Invalid e) {
            throw new ApiServerFlags.UsageException(e.getMessage());
        }
    }

    /**
     * pflag's string slice: each occurrence a comma list, every occurrence appended, an empty value
     * an empty list.
     */
    private static List<String> names(List<String> given) {
        List<String> names = new ArrayList<>();
        for (String text : given) {
            if (!text.isEmpty()) {
                names.addAll(List.of(text.split(",", -1)));
            }
        }
        return names;
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
