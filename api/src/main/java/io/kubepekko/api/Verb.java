package io.kubepekko.api;

/**
 * What a resource request does, as kube-apiserver's request info names it: read once from the
 * method and path at the edge, then passed on as this value.
 */
public enum Verb {
    GET("get"),
    LIST("list"),
    WATCH("watch"),
    CREATE("create"),
    UPDATE("update"),
    PATCH("patch"),
    DELETE("delete"),
    DELETECOLLECTION("deletecollection"),
    /** A method no resource route serves (OPTIONS, CONNECT…): every resource refuses it. */
    UNSUPPORTED("");

    private final String wireName;

    Verb(String wireName) {
        this.wireName = wireName;
    }

    /**
     * The name discovery and a resource's verb list use ({@code deletecollection}); empty for
     * {@link #UNSUPPORTED}.
     */
    public String wireName() {
        return wireName;
    }
}
