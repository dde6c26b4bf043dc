package dev.logrouter.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering every module keeps, checked on the compiled main classes of all of them (this module's test class
 * path holds every one): data flows source → ring → stage → sink, so a package never imports one later in the flow,
 * and the core knows no transport or client library.
 *
 * <p>The core's packages, from the bottom: {@code util}, {@code option}, {@code event}, {@code metrics},
 * {@code template}, {@code filter}, {@code parse}, {@code rewrite} (the stage's building blocks); {@code source}
 * (publishing into the ring); {@code sink} (the sink SPI); {@code config} (the whole configuration and the
 * registry of types); {@code route} and {@code pipeline}, which put them together.
 */
class LayeringTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // the modules come as jars (a reactor build) or class directories; their test-jars hold test fixtures
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.logrouter");
    }

    @Test
    void coreImportsNoTransportNorClientLibrary() {
        noClasses().that().resideInAPackage("dev.logrouter.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "org.apache.kafka..",
                        "org.apache.hadoop..", "co.elastic..", "org.elasticsearch..",
                        "dev.logrouter.netty..", "dev.logrouter.patterndb..", "dev.logrouter.sinks..",
                        "dev.logrouter.server..")
                .check(classes);
    }

    @Test
    void corePackagesHaveNoCycles() {
        slices().matching("dev.logrouter.core.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void modulesHaveNoCycles() {
        slices().matching("dev.logrouter.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void stageBuildingBlocksDoNotReachSourcesRingOrSinks() {
        noClasses().that().resideInAnyPackage("dev.logrouter.core.util..", "dev.logrouter.core.option..",
                        "dev.logrouter.core.event..", "dev.logrouter.core.metrics..", "dev.logrouter.core.template..",
                        "dev.logrouter.core.filter..", "dev.logrouter.core.parse..", "dev.logrouter.core.rewrite..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.logrouter.core.source..",
                        "dev.logrouter.core.pipeline..", "dev.logrouter.core.sink..", "dev.logrouter.core.route..",
                        "dev.logrouter.core.config..")
                .check(classes);
    }

    @Test
    void sourcesAndSinksDoNotReachTheStagesOrEachOther() {
        noClasses().that().resideInAPackage("dev.logrouter.core.source..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.logrouter.core.pipeline..",
                        "dev.logrouter.core.parse..", "dev.logrouter.core.route..", "dev.logrouter.core.sink..",
                        "dev.logrouter.core.config..")
                .check(classes);
        noClasses().that().resideInAPackage("dev.logrouter.core.sink..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.logrouter.core.source..",
                        "dev.logrouter.core.pipeline..", "dev.logrouter.core.parse..", "dev.logrouter.core.route..",
                        "dev.logrouter.core.config..")
                .check(classes);
    }

    @Test
    void networkSourcesKnowNoStageSinkOrServer() {
        noClasses().that().resideInAPackage("dev.logrouter.netty..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.logrouter.core.pipeline..",
                        "dev.logrouter.core.route..", "dev.logrouter.patterndb..", "dev.logrouter.sinks..",
                        "dev.logrouter.server..")
                .check(classes);
    }

    @Test
    void patternDbKnowsNoSourceSinkOrServer() {
        noClasses().that().resideInAPackage("dev.logrouter.patterndb..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.logrouter.netty..", "dev.logrouter.sinks..",
                        "dev.logrouter.server..", "dev.logrouter.core.source..")
                .check(classes);
    }

    @Test
    void sinkModulesKnowOnlyTheCoreAndTheirOwnClient() {
        noClasses().that().resideInAPackage("dev.logrouter.sinks..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.logrouter.netty..", "dev.logrouter.patterndb..",
                        "dev.logrouter.server..", "io.netty..", "dev.logrouter.core.pipeline..")
                .check(classes);
        slices().matching("dev.logrouter.sinks.(*)..").should().notDependOnEachOther().check(classes);
        noClasses().that().resideInAPackage("dev.logrouter.sinks.file..").should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka..", "org.apache.hadoop..", "co.elastic..").check(classes);
        noClasses().that().resideInAPackage("dev.logrouter.sinks.kafka..").should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.hadoop..", "co.elastic..", "org.elasticsearch..").check(classes);
        noClasses().that().resideInAPackage("dev.logrouter.sinks.elasticsearch..").should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka..", "org.apache.hadoop..").check(classes);
        noClasses().that().resideInAPackage("dev.logrouter.sinks.hdfs..").should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka..", "co.elastic..", "org.elasticsearch..").check(classes);
    }
}
