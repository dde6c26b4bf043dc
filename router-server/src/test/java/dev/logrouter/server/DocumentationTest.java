package dev.logrouter.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the documentation honest: the configuration reference ({@code docs/reference.md}) is exactly what the
 * option declarations generate, the metrics table ({@code docs/operations.md}) lists every metric a router
 * registers, the README's test command is what {@code .ci/run} runs, and the default configuration it starts
 * with is valid.
 */
class DocumentationTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static String readme() throws Exception {
        return Files.readString(ROOT.resolve("README.md"));
    }

    private static String doc(String page) throws Exception {
        return Files.readString(ROOT.resolve("docs").resolve(page));
    }

    @Test
    void configReferenceInTheDocsIsGeneratedFromTheDeclarations() throws Exception {
        Matcher m = Pattern.compile("<!-- config-reference:start -->\n(.*)<!-- config-reference:end -->",
                Pattern.DOTALL).matcher(doc("reference.md"));
        assertThat(m.find()).as("docs/reference.md has the config-reference markers").isTrue();
        assertThat(m.group(1)).as("docs/reference.md reference; regenerate with: java -jar "
                + "router-server/target/logrouter.jar config-reference").isEqualTo(ComponentTypes.reference());
    }

    @Test
    void ciRunsTheReadmeTestCommand() throws Exception {
        Matcher m = Pattern.compile("Run every test[^\n]*\n\n```sh\n([^\n]+)\n```").matcher(readme());
        assertThat(m.find()).isTrue();
        String command = m.group(1).trim();
        assertThat(Files.readAllLines(ROOT.resolve(".ci/run"))).contains(command);
    }

    @Test
    void everyMetricARouterRegistersIsDocumentedInTheOperationsPage() throws Exception {
        // the parsers example has every kind of component: sources, parsers, rewrites, routes, sinks
        String yaml = Files.readString(ROOT.resolve("config/parsers.yaml")).replace("127.0.0.1:5514", "127.0.0.1:0");
        Router router = new Router(ComponentTypes.loader().load(yaml, "doc-test.yaml"));
        String operations = doc("operations.md");
        String table = operations.substring(operations.indexOf("## Metrics (JMX)"), operations.indexOf("## Tuning"));
        for (var group : router.metrics().groups()) {
            for (var metric : group.metrics()) {
                assertThat(table).as("docs/operations.md metrics table lists %s/%s", group.type(), metric.name())
                        .contains("`" + metric.name() + "`");
            }
        }
    }

    @Test
    void everyExampleConfigurationPassesCheckConfig(@org.junit.jupiter.api.io.TempDir Path work) throws Exception {
        for (ExampleConfigs.Example e : ExampleConfigs.materialize(ROOT, work)) {
            var cfg = Main.load(e.copy().toString());
            assertThat(cfg.sinks()).as("%s", e.original()).isNotEmpty();
        }
    }

    @Test
    void defaultConfigurationIsValid() throws Exception {
        var cfg = ComponentTypes.loader().load(ROOT.resolve("config/router.yaml"));
        assertThat(cfg.sources()).extracting(s -> s.name()).containsExactly("net", "net-udp");
        assertThat(readme()).contains("java -jar router-server/target/logrouter.jar run");
    }
}
