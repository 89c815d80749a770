package io.kubepekko.api.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.kubepekko.api.meta.DefinitionLines;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * House rules of {@code api/}: the resource model is pure, so every other module (and the agent, an
 * API client) can use it without an actor system, a configuration library, a network or a disk. The
 * rules name packages, not classes, so they hold through package moves in the other modules.
 */
class ApiArchitectureTest {
    private static final String API = "io.kubepekko.api..";

    private static JavaClasses api;

    @BeforeAll
    static void importApi() {
        api =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.kubepekko.api");
    }

    @Test
    void apiDependsOnNoPekkoNoConfigurationLibraryAndNoOtherModule() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage(API)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(
                                "org.apache.pekko..",
                                "akka..",
                                "scala..",
                                "com.typesafe..",
                                "io.kubepekko.persistence..",
                                "io.kubepekko.actors..",
                                "io.kubepekko.http..",
                                "io.kubepekko.agent..",
                                "io.kubepekko.bench..")
                        .because(
                                "api is the pure resource model every module shares; settings and actors live above it");
        rule.check(api);
    }

    /**
     * logback is on api's classpath for kube's logging flags, which the API server and the node
     * agent apply to it; the resource model logs through nothing but slf4j, if at all.
     */
    @Test
    void onlyTheLoggingRoomUsesLogback() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage(API)
                        .and()
                        .resideOutsideOfPackage("io.kubepekko.api.logging..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage("ch.qos.logback..")
                        .because(
                                "the logging flags configure logback; nothing else in api knows it");
        rule.check(api);
    }

    @Test
    void apiDoesNoNetworkOrFileIo() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage(API)
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage("java.net..", "java.nio.file..", "java.nio.channels..")
                        .orShould()
                        .dependOnClassesThat()
                        .haveNameMatching("java\\.io\\.(File|RandomAccessFile)\\w*")
                        .because(
                                "api decides; reading and writing bytes anywhere is the caller's job");
        rule.check(api);
    }

    /**
     * Reading the classpath is the one I/O api does today: {@link DefinitionLines#resource} loads
     * the project's own definition files shipped beside the classes (protobuf message definitions,
     * merge metadata) once, when those tables are built. Any other class reading resources is a new
     * way in.
     */
    @Test
    void onlyDefinitionLinesReadsClasspathResources() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage(API)
                        .and()
                        .doNotBelongToAnyOf(DefinitionLines.class)
                        .should()
                        .callMethodWhere(readsResource())
                        .orShould()
                        .callMethodWhere(opensProcessOrThread())
                        .because(
                                "api reads only its own definition files, through DefinitionLines");
        rule.check(api);
    }

    private static DescribedPredicate<JavaCall<?>> readsResource() {
        return DescribedPredicate.describe(
                "a Class/ClassLoader resource read",
                call ->
                        (call.getTargetOwner().isEquivalentTo(Class.class)
                                        || call.getTargetOwner().isAssignableTo(ClassLoader.class))
                                && call.getName().startsWith("getResource"));
    }

    private static DescribedPredicate<JavaCall<?>> opensProcessOrThread() {
        return DescribedPredicate.describe(
                "a process or thread start",
                call ->
                        call.getTargetOwner().isAssignableTo(ProcessBuilder.class)
                                || (call.getTargetOwner().isEquivalentTo(Runtime.class)
                                        && call.getName().equals("exec"))
                                || (call.getTargetOwner().isAssignableTo(Thread.class)
                                        && call.getName().equals("start")));
    }
}
