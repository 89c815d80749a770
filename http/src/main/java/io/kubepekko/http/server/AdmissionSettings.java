package io.kubepekko.http.server;

import io.kubepekko.api.admission.AdmissionPluginSelection;
import io.kubepekko.api.admission.tolerations.DefaultTolerationSeconds;

/**
 * How the server admits writes: which admission plugins run ({@code --enable-admission-plugins},
 * {@code --disable-admission-plugins}) and the DefaultTolerationSeconds plugin's tolerations
 * ({@code --default-not-ready-toleration-seconds}, {@code
 * --default-unreachable-toleration-seconds}).
 */
public record AdmissionSettings(
        AdmissionPluginSelection plugins, DefaultTolerationSeconds tolerations) {

    /** kube's defaults. */
    public static final AdmissionSettings DEFAULT =
            new AdmissionSettings(
                    AdmissionPluginSelection.DEFAULT,
                    new DefaultTolerationSeconds(
                            DefaultTolerationSeconds.DEFAULT_SECONDS,
                            DefaultTolerationSeconds.DEFAULT_SECONDS));
}
