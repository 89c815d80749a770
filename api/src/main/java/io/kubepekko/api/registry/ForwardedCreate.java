package io.kubepekko.api.registry;

/**
 * Where a resource without objects of its own sends its creates: to a subresource of another
 * resource of its group version, on the object its body names. Kubernetes keeps core/v1 {@code
 * bindings} this way (its {@code LegacyBindingREST}): {@code POST namespaces/{ns}/bindings} is
 * {@code POST namespaces/{ns}/pods/{body's name}/binding}, except that the body's uid is wiped as
 * for any create.
 *
 * @param resource the resource whose object the create acts on, e.g. {@code pods}
 * @param subresource the subresource that acts, e.g. {@code binding}
 */
public record ForwardedCreate(String resource, String subresource) {}
