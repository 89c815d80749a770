package io.kubepekko.agent.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * House rule of {@code agent/}: the node agent is an API client like any other, so among the
 * project's modules it uses only {@code api/} (the resource model) and never the server's insides.
 * Its tests may start a server in-process; the rule reads main classes only.
 */
class AgentArchitectureTest {
    @Test
    void agentUsesOnlyTheApiModuleOfOurs() {
        JavaClasses agent =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.kubepekko.agent");
        ArchRule rule =
                noClasses()
                        .that()
                        .resideInAPackage("io.kubepekko.agent..")
                        .should()
                        .dependOnClassesThat(
                                resideInAPackage("io.kubepekko..")
                                        .and(
                                                resideOutsideOfPackages(
                                                        "io.kubepekko.api..",
                                                        "io.kubepekko.agent..")))
                        .because(
                                "the agent talks to the server over HTTP, as kubelet does; persistence, actors and http are the server");
        rule.check(agent);
    }
}
