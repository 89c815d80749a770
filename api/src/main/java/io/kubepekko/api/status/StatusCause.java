package io.kubepekko.api.status;

/** One entry of {@code Status.details.causes}: {@code reason}, {@code message}, {@code field}. */
public record StatusCause(String reason, String message, String field) {}
