package io.kubepekko.http.server;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.controllers.InformedObjectsSource;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.priority.PriorityAdmission;
import io.kubepekko.api.admission.storageclass.DefaultStorageClass;
import io.kubepekko.api.admission.tolerations.DefaultTolerationSeconds;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;

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

    /** Starts the class informers, adding them to {@code sources} (stopped with the server). */
    static DefaultingPlugins start(
            ControlPlane controlPlane,
            Backoff backoff,
            DefaultTolerationSeconds tolerations,
            List<ActorRef<?>> sources) {
        InformedObjects priorityClasses = new InformedObjects("priority classes");
        InformedObjects storageClasses = new InformedObjects("storage classes");
        sources.add(
                controlPlane
                        .system()
                        .systemActorOf(
                                InformedObjectsSource.create(
                                        controlPlane, PRIORITY_CLASSES, priorityClasses, backoff),
                                "priority-classes",
                                Props.empty()));
        sources.add(
                controlPlane
                        .system()
                        .systemActorOf(
                                InformedObjectsSource.create(
                                        controlPlane, STORAGE_CLASSES, storageClasses, backoff),
                                "storage-classes",
                                Props.empty()));
        return new DefaultingPlugins(priorityClasses, storageClasses, tolerations);
    }

    /** Empty once both informers have listed their classes. */
    Optional<String> readiness() {
        return priorityClasses.readiness().or(storageClasses::readiness);
    }
}
