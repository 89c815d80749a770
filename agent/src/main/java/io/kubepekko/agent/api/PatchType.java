package io.kubepekko.agent.api;

/** The patch formats the API server accepts, by their content type. */
public enum PatchType {
    STRATEGIC_MERGE("application/strategic-merge-patch+json"),
    MERGE("application/merge-patch+json"),
    JSON("application/json-patch+json");

    private final String contentType;

    PatchType(String contentType) {
        this.contentType = contentType;
    }

    public String contentType() {
        return contentType;
    }
}
