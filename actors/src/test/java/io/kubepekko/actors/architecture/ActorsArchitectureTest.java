package io.kubepekko.actors.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

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
 * House rules of {@code actors/}: its packages are rooms by concern. The collection entity's
 * collaborators are the entity's own; the other rooms talk to it through its protocol ({@code
 * CollectionEntity} and its nested messages) and read its committed objects ({@code
 * CommittedObjects}). The read side and the entities sit below the control-plane facade, the
 * controllers and the authorization policy (which follows RBAC objects with the controllers'
 * informers), and the base package holds only what the rooms share.
 */
class ActorsArchitectureTest {
    private static final String ACTORS = "io.kubepekko.actors";
    private static final String ENTITY = ACTORS + ".entity..";

    /**
     * What of the entity room others may use, by top-level simple name (nested types come with
     * them).
     */
    private static final Set<String> ENTITY_SURFACE =
            Set.of(
                    "CollectionEntity",
                    "CollectionProtocol",
                    "CollectionEvent",
                    "ObjectChanged",
                    "CollectionState",
                    "CommittedObjects");

    /**
     * The one class that names the rooms' persisted classes from outside them: it maps their names
     * before the move to the classes now, for old journals and snapshots.
     */
    private static final String MOVED_CLASSES = ACTORS + ".MovedClasses";

    private static JavaClasses actors;

    @BeforeAll
    static void importActors() {
        actors =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages(ACTORS);
    }

    @Test
    void onlyTheEntityRoomUsesTheEntitysCollaborators() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideOutsideOfPackage(ENTITY)
                        .and()
                        .doNotHaveFullyQualifiedName(MOVED_CLASSES)
                        .should()
                        .dependOnClassesThat(resideInAPackage(ENTITY).and(notEntitySurface()))
                        .because(
                                "batching, claims, snapshots and paging are how the entity works; others send it messages");
        rule.check(actors);
    }

    @Test
    void entitiesAndTheReadSideStayBelowTheFacadeAndTheControllers() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAnyPackage(
                                ACTORS + ".entity..",
                                ACTORS + ".sequencing..",
                                ACTORS + ".allocation..",
                                ACTORS + ".watch..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(
                                ACTORS + ".plane..",
                                ACTORS + ".controllers..",
                                ACTORS + ".authorization..")
                        .because(
                                "ControlPlane composes the entities and the caches; the controllers and the authorization policy are its clients");
        rule.check(actors);
    }

    @Test
    void theEntitiesDoNotReadTheWatchCaches() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAnyPackage(
                                ACTORS + ".entity..",
                                ACTORS + ".sequencing..",
                                ACTORS + ".allocation..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(ACTORS + ".watch..")
                        .because(
                                "the caches follow the entities' published changes, never the other way");
        rule.check(actors);
    }

    @Test
    void theFacadeAndTheControllersDoNotDependOnTheAuthorizationPolicy() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAnyPackage(ACTORS + ".plane..", ACTORS + ".controllers..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(ACTORS + ".authorization..")
                        .because(
                                "the authorization policy is a client of the control plane, read by the server's request filter");
        rule.check(actors);
    }

    @Test
    void theBasePackageDependsOnNoRoom() {
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage(ACTORS)
                        .and()
                        .doNotHaveFullyQualifiedName(MOVED_CLASSES)
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(ACTORS + ".(*)..")
                        .because("the base package holds what the rooms share");
        rule.check(actors);
    }

    private static DescribedPredicate<JavaClass> notEntitySurface() {
        return DescribedPredicate.describe(
                "are not the entity's protocol " + ENTITY_SURFACE,
                c -> {
                    String simple = c.getName().substring(c.getPackageName().length() + 1);
                    int nested = simple.indexOf('$');
                    return !ENTITY_SURFACE.contains(
                            nested < 0 ? simple : simple.substring(0, nested));
                });
    }
}
