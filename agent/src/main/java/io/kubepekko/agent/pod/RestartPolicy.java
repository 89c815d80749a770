package io.kubepekko.agent.pod;

/** A pod's {@code spec.restartPolicy}. */
public enum RestartPolicy {
    ALWAYS("Always"),
    ON_FAILURE("OnFailure"),
    NEVER("Never");

    private final String text;

    RestartPolicy(String text) {
        this.text = text;
    }

    /** The API's spelling; absent or unknown is {@code Always}, as the kubelet treats it. */
    public static RestartPolicy of(String text) {
        for (RestartPolicy p : values()) {
            if (p.text.equals(text)) {
                return p;
            }
        }
        return ALWAYS;
    }

    @Override
    public String toString() {
        return text;
    }
}
