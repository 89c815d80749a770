package io.kubepekko.http.server;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.priority.PriorityAdmission;
import io.kubepekko.api.admission.storageclass.DefaultStorageClass;
import io.kubepekko.api.admission.tolerations.DefaultTolerationSeconds;
import java.util.Optional;

/**
 * The defaulting admission plugins kube-apiserver enables by default that read the store: Priority
 * (PriorityClasses), DefaultTolerationSeconds (its two flags) and DefaultStorageClass
 * (StorageClasses), with the informers that keep their classes current.
 */
final class DefaultingPlugins {

    static final GroupResource PRIORITY_CLASSES =
            new GroupResource("scheduling.k8s.io", "priorityclasses");
    static final GroupResource STORAGE_CLASSES =
            new GroupResource("storage.k8s.io", "storageclasses");

    final PriorityAdmission priority;
    final DefaultTolerationSeconds tolerations;
    final DefaultStorageClass storageClass;
    private final InformedObjects priorityClasses;
    private final InformedObjects storageClasses;

    private DefaultingPlugins(
            InformedObjects priorityClasses,
            InformedObjects storageClasses,
            DefaultTolerationSeconds tolerations) {
        this.priorityClasses = priorityClasses;
        this.storageClasses = storageClasses;
        this.priority = new PriorityAdmission(priorityClasses);
        this.tolerations = tolerations;
        this.storageClass = new DefaultStorageClass(storageClasses);
    }

    /** Starts the class informers through {@code feeds} (stopped with the server). */
    static DefaultingPlugins start(IndexFeeds feeds, DefaultTolerationSeconds tolerations) {
        return new DefaultingPlugins(
                feeds.follow(
                        PRIORITY_CLASSES,
                        new InformedObjects("priority classes"),
                        "priority-classes"),
                feeds.follow(
                        STORAGE_CLASSES, new InformedObjects("storage classes"), "storage-classes"),
                tolerations);
    }

    /** Empty once both informers have listed their classes. */
    Optional<String> readiness() {
        return priorityClasses.readiness().or(storageClasses::readiness);
    }
}
