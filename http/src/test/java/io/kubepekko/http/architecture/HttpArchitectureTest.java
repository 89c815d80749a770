package io.kubepekko.http.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * House rules of {@code http/}. Its rooms depend downward only: {@code server} (boot, flags,
 * settings, the process) builds the {@code route} handlers, which answer in the {@code encoding}'s
 * formats and report to the {@code audit} log; nothing in http depends on the server, and neither
 * encoding nor audit knows the routes. {@code security} (the PKI, TLS, client certificates, key
 * files) sits beside encoding, below the server and the routes, and so do {@code metrics} (what
 * {@code /metrics} exports, which the routes record in) and {@code webhook} (the admission
 * webhooks' calls, which the write routes make). The log format and verbosity live in api's {@code
 * logging}, shared with the node agent. Routes talk to the control plane through its facade and
 * never reach into the entities, the watch caches or the controllers' insides. The facade is named
 * by class, not package, so the rule holds while {@code io.kubepekko.actors} is split into
 * packages: a class keeps its name when it moves.
 */
class HttpArchitectureTest {
    /**
     * The actors types http may use, by their top-level class's simple name; all their nested types
     * (protocol records, settings) come with them. ControlPlane is the facade the routes call; the
     * rest is the wiring that {@code ApiServer} and {@code ClusterJoin} do at startup: controllers,
     * the RBAC policy the server authorizes with, the informer-fed sources of the Node authorizer's
     * graph, of the service-account token authenticator's index, of LimitRanger's index and of the
     * ResourceQuota admission's ledger, the clock and process environment, the storage quota, the
     * failover fencing actors, one helper that turns a Pekko future into a CompletionStage, the
     * extension the store reports its metrics to (installed by the server, recorded by /metrics),
     * and the admission SPI the webhook layer implements for the controllers' writes.
     */
    private static final Set<String> FACADE =
            Set.of(
                    "ControlPlane",
                    "Controllers",
                    "RbacPolicySource",
                    "NodeGraphSource",
                    "BoundObjectSource",
                    "IndexSource",
                    "QuotaSource",
                    "Backoff",
                    "Environment",
                    "StorageQuota",
                    "Futures",
                    "ClusterFormation",
                    "GenerationWatch",
                    "PeerContact",
                    "StoreMetrics",
                    "RequestAdmission");

    /**
     * Nested types http may use whose enclosing class is not part of the facade: the watch cache's
     * settings, which startup builds from configuration (the cache itself stays behind
     * ControlPlane).
     */
    private static final Set<String> FACADE_NESTED = Set.of("WatchCache$Settings");

    private static JavaClasses http;

    @BeforeAll
    static void importHttp() {
        http =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.kubepekko.http");
    }

    @Test
    void httpUsesOnlyTheControlPlaneFacadeOfActors() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage("io.kubepekko.http..")
                        .should()
                        .dependOnClassesThat(
                                resideInAPackage("io.kubepekko.actors..").and(notFacade()))
                        .because(
                                "entity internals change with the entities; http sees the protocol through ControlPlane");
        rule.check(http);
    }

    @Test
    void theRoomsDependDownwardOnly() {
        ArchRule rule =
                layeredArchitecture()
                        .consideringOnlyDependenciesInLayers()
                        .layer("server")
                        .definedBy("io.kubepekko.http.server..")
                        .layer("route")
                        .definedBy("io.kubepekko.http.route..")
                        .layer("encoding")
                        .definedBy("io.kubepekko.http.encoding..")
                        .layer("security")
                        .definedBy("io.kubepekko.http.security..")
                        .layer("audit")
                        .definedBy("io.kubepekko.http.audit..")
                        .layer("metrics")
                        .definedBy("io.kubepekko.http.metrics..")
                        .layer("webhook")
                        .definedBy("io.kubepekko.http.webhook..")
                        .whereLayer("server")
                        .mayNotBeAccessedByAnyLayer()
                        .whereLayer("route")
                        .mayOnlyBeAccessedByLayers("server")
                        .whereLayer("encoding")
                        .mayOnlyBeAccessedByLayers("route", "server")
                        .whereLayer("security")
                        .mayOnlyBeAccessedByLayers("route", "server", "webhook")
                        .whereLayer("audit")
                        .mayOnlyBeAccessedByLayers("route", "server")
                        .whereLayer("metrics")
                        .mayOnlyBeAccessedByLayers("route", "server")
                        .whereLayer("webhook")
                        .mayOnlyBeAccessedByLayers("route", "server")
                        .because(
                                "the server wires the routes, the routes use the encodings, never the other way;"
                                        + " security (certificates, TLS) is used by the server, the routes and the"
                                        + " webhook calls and uses none of them");
        rule.check(http);
    }

    @Test
    void everyClassLivesInARoom() {
        ArchRule rule =
                classes()
                        .that()
                        .resideInAPackage("io.kubepekko.http..")
                        .should()
                        .resideInAnyPackage(
                                "io.kubepekko.http.server..",
                                "io.kubepekko.http.route..",
                                "io.kubepekko.http.encoding..",
                                "io.kubepekko.http.security..",
                                "io.kubepekko.http.audit..",
                                "io.kubepekko.http.metrics..",
                                "io.kubepekko.http.webhook..")
                        .because(
                                "a class in the bare io.kubepekko.http package would sit outside the rooms' rules");
        rule.check(http);
    }

    /** Outside the facade: the watch caches included, whose readiness ControlPlane reports. */
    private static DescribedPredicate<JavaClass> notFacade() {
        return DescribedPredicate.describe(
                "are not the control plane facade " + FACADE + " or " + FACADE_NESTED,
                c -> {
                    String inPackage = c.getName().substring(c.getPackageName().length() + 1);
                    int nested = inPackage.indexOf('$');
                    String topLevel = nested < 0 ? inPackage : inPackage.substring(0, nested);
                    return !FACADE.contains(topLevel) && !FACADE_NESTED.contains(inPackage);
                });
    }
}
