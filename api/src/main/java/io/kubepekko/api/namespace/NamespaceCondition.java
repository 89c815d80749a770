package io.kubepekko.api.namespace;

/**
 * One entry of a namespace's {@code status.conditions} as the namespace controller reports it;
 * {@code lastTransitionTime} is added when it is written.
 */
public record NamespaceCondition(String type, String status, String reason, String message) {}
