package io.kubepekko.api.auth.review;

/**
 * A bad value already written as Go's {@code %#v} prints it ({@link GoSyntax}), so a {@code
 * FieldError} shows it unquoted.
 */
record GoValue(String text) {
    static GoValue of(String text) {
        return new GoValue(text);
    }

    @Override
    public String toString() {
        return text;
    }
}
