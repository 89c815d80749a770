package io.kubepekko.http.metrics;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/** Counts the objects stored per resource, for kube's gauge {@code apiserver_storage_objects}. */
@FunctionalInterface
public interface ObjectCounts {

    /**
     * The count of every stored resource, by its name qualified with its group ({@code
     * deployments.apps}); -1 for a resource that could not be counted, as kube reports it.
     */
    CompletionStage<Map<String, Long>> count();
}
