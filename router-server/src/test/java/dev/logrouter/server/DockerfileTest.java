package dev.logrouter.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.netty.udp.UdpSourceConfig;
import dev.logrouter.server.jmx.MonitoringConfig;
import dev.logrouter.sinks.elasticsearch.ElasticsearchSinkConfig;
import dev.logrouter.sinks.file.FileSinkConfig;
import dev.logrouter.sinks.kafka.KafkaSinkConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the container files honest. No Docker engine runs where this project is developed, so
 * {@code docker/Dockerfile}, {@code docker/compose.yaml}, {@code .dockerignore} and the systemd unit
 * {@code config/logrouter.service} are checked against the project by reading them: the build command is the
 * README's, the jar is the one the build makes, every copied file exists, the configuration the image starts
 * with loads, and ports, health check, mounts and service names agree with that configuration.
 */
class DockerfileTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCKERFILE = ROOT.resolve("docker/Dockerfile");
    private static final Path COMPOSE = ROOT.resolve("docker/compose.yaml");

    /**
     * The modules of a JDK 17 JRE image (eclipse-temurin's {@code -jre} images, the legacy JRE image of the
     * JDK build): the JDK's tools, {@code jdk.attach} among them, are not in it.
     */
    private static final String JRE_MODULES = String.join(",", "java.se", "jdk.charsets", "jdk.crypto.cryptoki",
            "jdk.crypto.ec", "jdk.dynalink", "jdk.httpserver", "jdk.jfr", "jdk.localedata", "jdk.management",
            "jdk.management.agent", "jdk.management.jfr", "jdk.naming.dns", "jdk.naming.rmi", "jdk.net",
            "jdk.nio.mapmode", "jdk.sctp", "jdk.security.auth", "jdk.security.jgss", "jdk.unsupported",
            "jdk.xml.dom", "jdk.zipfs", "jdk.jdwp.agent");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    // ---- the Dockerfile ---------------------------------------------------------------------------------------

    /** One instruction: keyword (upper case) and the rest of its (joined) line. */
    record Instruction(String keyword, String args) {
    }

    /** One build stage: its FROM image, its name ({@code AS name}, or null) and its instructions. */
    record Stage(String image, String name, List<Instruction> instructions) {

        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        Instruction last(String keyword) {
            List<Instruction> found = all(keyword);
            assertThat(found).as("stage %s has a %s instruction", image, keyword).isNotEmpty();
            return found.get(found.size() - 1);
        }
    }

    /** Parses a Dockerfile: comment lines dropped, continuation lines joined, split into stages at FROM. */
    static List<Stage> parse(String dockerfile) {
        List<String> logical = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : dockerfile.split("\n", -1)) {
            if (line.strip().startsWith("#")) {
                continue; // comments (and parser directives), also inside a continued instruction
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            current.append(line);
            if (!current.toString().isBlank()) {
                logical.add(current.toString().strip());
            }
            current.setLength(0);
        }
        List<Stage> stages = new ArrayList<>();
        for (String l : logical) {
            String[] kv = l.split("\\s+", 2);
            Instruction ins = new Instruction(kv[0].toUpperCase(), kv.length > 1 ? kv[1].strip() : "");
            if (ins.keyword().equals("FROM")) {
                String[] from = ins.args().replaceAll("--platform=\\S+\\s+", "").split("\\s+");
                String name = from.length >= 3 && from[1].equalsIgnoreCase("AS") ? from[2] : null;
                stages.add(new Stage(from[0], name, new ArrayList<>()));
            } else {
                assertThat(stages).as("%s before the first FROM", l).isNotEmpty();
                stages.get(stages.size() - 1).instructions().add(ins);
            }
        }
        return stages;
    }

    private static List<Stage> stages() throws Exception {
        List<Stage> stages = parse(Files.readString(DOCKERFILE));
        assertThat(stages).as("docker/Dockerfile stages").hasSizeGreaterThanOrEqualTo(2);
        return stages;
    }

    private static Stage buildStage(List<Stage> stages) {
        return stages.stream().filter(s -> "build".equals(s.name())).findFirst()
                .orElseThrow(() -> new AssertionError("docker/Dockerfile has no stage 'AS build'"));
    }

    private static Stage runtimeStage(List<Stage> stages) {
        return stages.get(stages.size() - 1);
    }

    /** An exec-form (JSON array) argument list, as ENTRYPOINT, CMD and HEALTHCHECK CMD take. */
    private static List<String> execForm(String json, String what) throws Exception {
        assertThat(json.strip()).as("%s is in exec form (a JSON array): %s", what, json).startsWith("[");
        List<String> args = new ArrayList<>();
        JSON.readTree(json).forEach(n -> args.add(n.asText()));
        return args;
    }

    private static String after(List<String> args, String flag, String what) {
        int i = args.indexOf(flag);
        assertThat(i).as("%s has %s: %s", what, flag, args).isGreaterThanOrEqualTo(0).isLessThan(args.size() - 1);
        return args.get(i + 1);
    }

    /** COPY/ADD flags (--from=, --chown=, ...) and the source and destination paths. */
    record Copy(Map<String, String> flags, List<String> sources, String destination) {

        static Copy of(Instruction ins) throws Exception {
            Map<String, String> flags = new LinkedHashMap<>();
            List<String> paths = new ArrayList<>();
            String args = ins.args();
            if (args.startsWith("[")) {
                JSON.readTree(args).forEach(n -> paths.add(n.asText()));
            } else {
                for (String t : args.split("\\s+")) {
                    if (t.startsWith("--") && paths.isEmpty()) {
                        String[] kv = t.substring(2).split("=", 2);
                        flags.put(kv[0], kv.length > 1 ? kv[1] : "");
                    } else {
                        paths.add(t);
                    }
                }
            }
            assertThat(paths).as("%s %s has a source and a destination", ins.keyword(), args).hasSizeGreaterThan(1);
            return new Copy(flags, paths.subList(0, paths.size() - 1), paths.get(paths.size() - 1));
        }
    }

    private static List<Copy> copies(Stage stage) throws Exception {
        List<Copy> copies = new ArrayList<>();
        for (Instruction i : stage.instructions()) {
            if (i.keyword().equals("COPY") || i.keyword().equals("ADD")) {
                copies.add(Copy.of(i));
            }
        }
        return copies;
    }

    /** The runtime stage's jar: ENTRYPOINT is {@code java -jar JAR}. */
    private static String runtimeJar(Stage runtime) throws Exception {
        List<String> entrypoint = execForm(runtime.last("ENTRYPOINT").args(), "ENTRYPOINT");
        assertThat(entrypoint.get(0)).as("ENTRYPOINT runs java: %s", entrypoint).isEqualTo("java");
        return after(entrypoint, "-jar", "ENTRYPOINT");
    }

    /** The configuration path CMD names ({@code run --config PATH}). */
    private static String cmdConfigPath(Stage runtime) throws Exception {
        List<String> cmd = execForm(runtime.last("CMD").args(), "CMD");
        assertThat(cmd.get(0)).as("CMD starts the router: %s", cmd).isEqualTo("run");
        return after(cmd, "--config", "CMD");
    }

    /**
     * Which repository file ends up at each image path of the runtime stage, from its COPY instructions
     * (local sources only; a later COPY overwrites an earlier one, as in the image).
     */
    private static Map<String, Path> bakedFiles(Stage runtime) throws Exception {
        Map<String, Path> files = new LinkedHashMap<>();
        for (Copy c : copies(runtime)) {
            if (c.flags().containsKey("from")) {
                continue;
            }
            for (String src : c.sources()) {
                Path source = ROOT.resolve(src).normalize();
                if (Files.isDirectory(source)) {
                    try (Stream<Path> walk = Files.walk(source)) {
                        for (Path f : walk.filter(Files::isRegularFile).toList()) {
                            files.put(join(c.destination(), source.relativize(f).toString()), f);
                        }
                    }
                } else if (c.destination().endsWith("/")) {
                    files.put(join(c.destination(), source.getFileName().toString()), source);
                } else {
                    files.put(c.destination(), source);
                }
            }
        }
        return files;
    }

    private static String join(String dir, String rel) {
        return (dir.endsWith("/") ? dir : dir + "/") + rel;
    }

    /** The repository file baked where CMD's --config points: must be one of config/*.yaml. */
    private static Path imageConfigSource(Stage runtime) throws Exception {
        String path = cmdConfigPath(runtime);
        Path source = bakedFiles(runtime).get(path);
        assertThat(source).as("CMD names %s, which no COPY of the runtime stage puts into the image", path).isNotNull();
        assertThat(source).as("the image's configuration %s is copied from an existing file", path).isRegularFile();
        assertThat(source.getParent()).as("the image's configuration comes from config/").isEqualTo(ROOT.resolve("config"));
        assertThat(source.getFileName().toString()).as("the image's configuration is a config/*.yaml").endsWith(".yaml");
        return source;
    }

    /** Ports a configuration listens on, as {@code PORT/tcp} and {@code PORT/udp}: its sources and remote JMX. */
    private static Set<String> listeningPorts(RouterConfig cfg) {
        Set<String> ports = new LinkedHashSet<>();
        cfg.sources().forEach(s -> {
            if (s instanceof TcpSourceConfig t) {
                ports.add(port(t.bind()) + "/tcp");
            } else if (s instanceof UdpSourceConfig u) {
                ports.add(port(u.bind()) + "/udp");
            }
        });
        if (MonitoringConfig.of(cfg).jmx().remote()) {
            ports.add(MonitoringConfig.of(cfg).jmx().port() + "/tcp");
        }
        return ports;
    }

    private static Set<String> sourcePorts(RouterConfig cfg) {
        Set<String> ports = listeningPorts(cfg);
        if (MonitoringConfig.of(cfg).jmx().remote()) {
            ports.remove(MonitoringConfig.of(cfg).jmx().port() + "/tcp");
        }
        return ports;
    }

    private static int port(String hostPort) {
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    private static String host(String hostPort) {
        return hostPort.substring(0, hostPort.lastIndexOf(':')).replace("[", "").replace("]", "");
    }

    /** A container's sources must listen on every interface, or published ports do not reach them. */
    private static void assertSourcesListenOnEveryInterface(RouterConfig cfg, Path file) {
        cfg.sources().forEach(s -> {
            String bind = s instanceof TcpSourceConfig t ? t.bind() : s instanceof UdpSourceConfig u ? u.bind() : null;
            if (bind != null) {
                assertThat(host(bind)).as("%s: source %s binds %s; in a container it must bind 0.0.0.0 (or ::) for "
                        + "published ports to reach it", ROOT.relativize(file), s.name(), bind).isIn("0.0.0.0", "::");
            }
        });
    }

    /** File sinks write relative paths, so that their output lands in the image's working directory (a volume). */
    private static void assertFileSinksWriteUnderTheWorkingDirectory(RouterConfig cfg, Path file) {
        cfg.sinks().forEach(s -> {
            if (s instanceof FileSinkConfig f) {
                assertThat(f.path()).as("%s: file sink %s writes %s; a relative path lands in the volume WORKDIR",
                        ROOT.relativize(file), f.name(), f.path()).doesNotStartWith("/");
            }
        });
    }

    private static String readmeBuildCommand() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Matcher m = Pattern.compile("## Two commands\n.*?```sh\n([^\n]+)\n```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find()).as("README has a 'Two commands' section with a sh block").isTrue();
        // "BUILD && java -jar ... run": the build is the part before the first &&
        return m.group(1).split("&&")[0].strip();
    }

    @Test
    void buildStageRunsTheReadmeBuildCommandOnAJdkAndTheRuntimeIsTheSameDistroJre() throws Exception {
        List<Stage> stages = stages();
        Stage build = buildStage(stages);
        Stage runtime = runtimeStage(stages);
        String command = readmeBuildCommand();
        assertThat(build.all("RUN")).extracting(Instruction::args)
                .as("the build stage runs the README's build command (README 'Two commands': %s)", command)
                .containsExactly(command);
        assertThat(build.image()).as("build stage base image").matches("eclipse-temurin:17[.0-9_]*-jdk-[a-z]+");
        assertThat(runtime.image()).as("runtime stage base image").matches("eclipse-temurin:17[.0-9_]*-jre-[a-z]+");
        assertThat(runtime.image().replaceAll(".*-jre", ""))
                .as("runtime and build images are the same distribution (%s, %s)", runtime.image(), build.image())
                .isEqualTo(build.image().replaceAll(".*-jdk", ""));
    }

    @Test
    void jarCopiedFromTheBuildStageIsTheShadedJarTheBuildMakes() throws Exception {
        List<Stage> stages = stages();
        Stage build = buildStage(stages);
        Stage runtime = runtimeStage(stages);
        String pom = Files.readString(ROOT.resolve("router-server/pom.xml"));
        Matcher m = Pattern.compile("maven-shade-plugin</artifactId>.*?<finalName>([^<]+)</finalName>", Pattern.DOTALL)
                .matcher(pom);
        assertThat(m.find()).as("router-server/pom.xml sets the shade plugin's finalName").isTrue();
        String workdir = build.last("WORKDIR").args();
        String builtJar = join(workdir, "router-server/target/" + m.group(1) + ".jar");

        List<Copy> fromBuild = copies(runtime).stream().filter(c -> "build".equals(c.flags().get("from"))).toList();
        assertThat(fromBuild).as("the runtime stage copies one file from the build stage").hasSize(1);
        Copy jar = fromBuild.get(0);
        assertThat(jar.sources()).as("the jar copied from the build stage is the one router-server/pom.xml builds "
                + "(WORKDIR %s + router-server/target/<finalName>.jar)", workdir).containsExactly(builtJar);
        assertThat(jar.destination()).as("the jar is copied to where ENTRYPOINT runs it").isEqualTo(runtimeJar(runtime));
    }

    @Test
    void everyCopiedPathExistsAndIsInTheBuildContext() throws Exception {
        List<String> inputs = new ArrayList<>(List.of("mvnw", ".mvn/wrapper/maven-wrapper.properties", "pom.xml"));
        for (Stage stage : stages()) {
            for (Copy c : copies(stage)) {
                if (c.flags().containsKey("from")) {
                    continue;
                }
                for (String src : c.sources()) {
                    if (!src.equals(".")) {
                        assertThat(ROOT.resolve(src)).as("COPY source %s exists in the repository", src).exists();
                        inputs.add(src);
                    }
                }
            }
        }
        String modules = Files.readString(ROOT.resolve("pom.xml"));
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(modules);
        while (m.find()) {
            inputs.add(m.group(1) + "/pom.xml");
            inputs.add(m.group(1) + "/src");
        }
        List<String> ignore = dockerignore();
        for (String input : inputs) {
            assertThat(ignored(ignore, input)).as(".dockerignore keeps build input %s out of the context", input).isFalse();
        }
        assertThat(ROOT.resolve("mvnw")).as("mvnw is executable (the build stage runs ./mvnw)").isExecutable();
    }

    @Test
    void dockerignoreKeepsBuildOutputAndGitOutOfTheContext() throws Exception {
        List<String> ignore = dockerignore();
        for (String out : List.of("target", "router-server/target", "router-core/target/classes", ".git", "data")) {
            assertThat(ignored(ignore, out)).as(".dockerignore excludes %s", out).isTrue();
        }
    }

    @Test
    void imageStartsWithABakedConfigurationThatLoads() throws Exception {
        Stage runtime = runtimeStage(stages());
        Path source = imageConfigSource(runtime);
        RouterConfig cfg = ComponentTypes.loader().load(source);
        assertSourcesListenOnEveryInterface(cfg, source);
        assertFileSinksWriteUnderTheWorkingDirectory(cfg, source);
        // every example stays available in the image next to the default, for mounting a choice over it
        Map<String, Path> baked = bakedFiles(runtime);
        String configDir = cmdConfigPath(runtime).substring(0, cmdConfigPath(runtime).lastIndexOf('/'));
        try (Stream<Path> files = Files.list(ROOT.resolve("config"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                assertThat(baked).as("config/%s is baked into %s", f.getFileName(), configDir)
                        .containsKey(join(configDir, f.getFileName().toString()));
            }
        }
    }

    @Test
    void exposedPortsAreExactlyThePortsOfTheImageConfiguration() throws Exception {
        Stage runtime = runtimeStage(stages());
        Path source = imageConfigSource(runtime);
        RouterConfig cfg = ComponentTypes.loader().load(source);
        Set<String> exposed = new LinkedHashSet<>();
        for (Instruction e : runtime.all("EXPOSE")) {
            for (String p : e.args().split("\\s+")) {
                exposed.add(p.contains("/") ? p.toLowerCase() : p + "/tcp");
            }
        }
        assertThat(exposed).as("EXPOSE equals the tcp/udp source ports and monitoring.jmx.port of %s",
                ROOT.relativize(source)).containsExactlyInAnyOrderElementsOf(listeningPorts(cfg));
    }

    @Test
    void healthCheckReadsTheJmxPortOfTheImageConfigurationWithTheImageJar() throws Exception {
        Stage runtime = runtimeStage(stages());
        RouterConfig cfg = ComponentTypes.loader().load(imageConfigSource(runtime));
        List<String> check = healthCheck(runtime);
        assertThat(check.get(0)).as("HEALTHCHECK runs java: %s", check).isEqualTo("java");
        assertThat(after(check, "-jar", "HEALTHCHECK")).as("HEALTHCHECK runs the image's jar").isEqualTo(runtimeJar(runtime));
        assertThat(check.get(check.indexOf("-jar") + 2)).as("HEALTHCHECK runs the stats command").isEqualTo("stats");
        String jmx = after(check, "--jmx", "HEALTHCHECK");
        assertThat(host(jmx)).as("HEALTHCHECK reads JMX on the container's loopback").isEqualTo("127.0.0.1");
        assertThat(MonitoringConfig.of(cfg).jmx().port()).as("the image's configuration opens remote JMX for the HEALTHCHECK")
                .isPositive();
        assertThat(port(jmx)).as("HEALTHCHECK --jmx port equals monitoring.jmx.port of the image's configuration")
                .isEqualTo(MonitoringConfig.of(cfg).jmx().port());
        assertThat(InetAddress.getByName(MonitoringConfig.of(cfg).jmx().bind()).isLoopbackAddress())
                .as("the image's configuration keeps unauthenticated JMX on loopback (bind %s)", MonitoringConfig.of(cfg).jmx().bind())
                .isTrue();
    }

    /**
     * The HEALTHCHECK's command, run on a Java runtime with a JRE's modules (no {@code jdk.attach}), against a
     * router started from the image's configuration: it must exit 0. {@code stats --jmx} once failed to link
     * there (NoClassDefFoundError for an attach class), which would have left every container unhealthy.
     */
    @Test
    void healthCheckCommandWorksOnAJre(@TempDir Path dir) throws Exception {
        Stage runtime = runtimeStage(stages());
        ObjectNode yaml = (ObjectNode) YAML.readTree(imageConfigSource(runtime).toFile());
        yaml.get("sources").forEach(s -> ((ObjectNode) s).put("bind", "127.0.0.1:0"));
        yaml.get("sinks").forEach(s -> {
            if (s.has("path")) {
                ((ObjectNode) s).put("path", dir.resolve(s.get("path").asText()).toString());
            }
        });
        int jmxPort;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            jmxPort = free.getLocalPort();
        }
        ((ObjectNode) yaml.at("/monitoring/jmx")).put("port", jmxPort);

        List<String> check = healthCheck(runtime);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--limit-modules", JRE_MODULES, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        for (String arg : check.subList(check.indexOf("-jar") + 2, check.size())) {
            command.add(arg.startsWith("127.0.0.1:") ? "127.0.0.1:" + jmxPort : arg);
        }
        Path log = dir.resolve("stats.out");
        Router router = TestClient.startRouter(YAML.writeValueAsString(yaml));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stats finished").isTrue();
            String out = Files.readString(log);
            assertThat(p.exitValue()).as("HEALTHCHECK command on a JRE exits 0; output:\n%s", out).isZero();
            assertThat(out).contains("Router").contains("RUNNING");
        } finally {
            router.stop();
        }
    }

    private static List<String> healthCheck(Stage runtime) throws Exception {
        String args = runtime.last("HEALTHCHECK").args();
        int cmd = args.indexOf("CMD ");
        assertThat(cmd).as("HEALTHCHECK has a CMD: %s", args).isGreaterThanOrEqualTo(0);
        return execForm(args.substring(cmd + 4), "HEALTHCHECK CMD");
    }

    @Test
    void runtimeRunsAsANonRootUserInAWorkingDirectoryVolumeItOwns() throws Exception {
        Stage runtime = runtimeStage(stages());
        String user = runtime.last("USER").args().split(":")[0];
        assertThat(user).as("runtime stage USER is not root").isNotIn("root", "0");
        String workdir = runtime.last("WORKDIR").args();
        List<String> volumes = new ArrayList<>();
        for (Instruction v : runtime.all("VOLUME")) {
            if (v.args().startsWith("[")) {
                volumes.addAll(execForm(v.args(), "VOLUME"));
            } else {
                volumes.addAll(List.of(v.args().split("\\s+")));
            }
        }
        assertThat(volumes).as("the runtime WORKDIR %s (where relative sink paths write) is a VOLUME", workdir)
                .contains(workdir);
        String runs = String.join("\n", runtime.all("RUN").stream().map(Instruction::args).toList());
        assertThat(runs).as("the runtime stage creates user %s", user).containsPattern("useradd .*\\b" + user + "\\b");
        assertThat(runs).as("the runtime stage gives %s to %s", workdir, user)
                .containsPattern("chown\\s+" + user + "(:\\S+)?\\s+" + Pattern.quote(workdir));
    }

    // ---- .dockerignore ----------------------------------------------------------------------------------------

    private static List<String> dockerignore() throws Exception {
        return Files.readAllLines(ROOT.resolve(".dockerignore")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /**
     * Docker's rule: a path is excluded when the last pattern matching it or one of its parent directories is
     * not a {@code !} exception; {@code **} also matches no directory at all.
     */
    static boolean ignored(List<String> patterns, String path) {
        String[] parts = path.split("/");
        StringBuilder prefix = new StringBuilder();
        for (String part : parts) {
            prefix.append(prefix.length() == 0 ? "" : "/").append(part);
            boolean excluded = false;
            for (String pattern : patterns) {
                boolean negate = pattern.startsWith("!");
                String p = (negate ? pattern.substring(1) : pattern).replaceAll("^/+|/+$", "");
                if (matches(p, prefix.toString()) || (p.startsWith("**/") && matches(p.substring(3), prefix.toString()))) {
                    excluded = !negate;
                }
            }
            if (excluded) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String glob, String path) {
        return FileSystems.getDefault().getPathMatcher("glob:" + glob).matches(Path.of(path));
    }

    // ---- docker/compose.yaml ----------------------------------------------------------------------------------

    private static JsonNode compose() throws Exception {
        return YAML.readTree(COMPOSE.toFile());
    }

    private static Map<String, String> environment(JsonNode service) {
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode e = service.path("environment");
        if (e.isArray()) {
            e.forEach(n -> {
                String[] kv = n.asText().split("=", 2);
                env.put(kv[0], kv.length > 1 ? kv[1] : "");
            });
        } else {
            e.fields().forEachRemaining(f -> env.put(f.getKey(), f.getValue().asText()));
        }
        return env;
    }

    /** The router's mounts: container path → host path (bind mounts) or volume name. */
    private static Map<String, String> mounts(JsonNode service) {
        Map<String, String> mounts = new LinkedHashMap<>();
        service.path("volumes").forEach(v -> {
            if (v.isTextual()) {
                String[] parts = v.asText().split(":");
                mounts.put(parts[1], parts[0]);
            } else {
                mounts.put(v.path("target").asText(), v.path("source").asText());
            }
        });
        return mounts;
    }

    private static boolean isBindMount(String source) {
        return source.startsWith(".") || source.startsWith("/") || source.startsWith("~");
    }

    @Test
    void composeBuildsTheDockerfileAndMountsExistingFiles() throws Exception {
        JsonNode router = compose().path("services").path("logrouter");
        assertThat(router.isMissingNode()).as("docker/compose.yaml has a service logrouter").isFalse();
        Path context = COMPOSE.getParent().resolve(router.path("build").path("context").asText()).normalize();
        Path dockerfile = context.resolve(router.path("build").path("dockerfile").asText()).normalize();
        assertThat(dockerfile).as("compose's logrouter build.dockerfile (relative to its context %s)", context)
                .isRegularFile().isEqualTo(DOCKERFILE);
        assertThat(context).as("compose builds with the repository root as context, as the Dockerfile expects")
                .isEqualTo(ROOT);
        JsonNode top = compose().path("volumes");
        for (Map.Entry<String, String> m : mounts(router).entrySet()) {
            if (isBindMount(m.getValue())) {
                assertThat(COMPOSE.getParent().resolve(m.getValue()).normalize())
                        .as("compose bind-mounts %s at %s: the host path exists", m.getValue(), m.getKey()).exists();
            } else {
                assertThat(top.has(m.getValue())).as("compose volume %s is declared under volumes:", m.getValue()).isTrue();
            }
        }
        String workdir = runtimeStage(stages()).last("WORKDIR").args();
        assertThat(mounts(router)).as("compose keeps the router's working directory %s in a volume", workdir)
                .containsKey(workdir);
    }

    /** The router configuration compose mounts over the image's configuration path. */
    private static Path composeRouterConfig() throws Exception {
        JsonNode router = compose().path("services").path("logrouter");
        String configPath = cmdConfigPath(runtimeStage(stages()));
        String host = mounts(router).get(configPath);
        assertThat(host).as("compose mounts a configuration at %s (the image's CMD --config)", configPath).isNotNull();
        Path file = COMPOSE.getParent().resolve(host).normalize();
        assertThat(file).as("compose's router configuration %s exists", host).isRegularFile();
        return file;
    }

    @Test
    void composeRouterConfigurationLoadsAndItsSourcePortsArePublished() throws Exception {
        Path file = composeRouterConfig();
        RouterConfig cfg = ComponentTypes.loader().load(file);
        assertSourcesListenOnEveryInterface(cfg, file);
        assertFileSinksWriteUnderTheWorkingDirectory(cfg, file);
        Set<String> published = new LinkedHashSet<>();
        compose().path("services").path("logrouter").path("ports").forEach(p -> {
            String spec = p.isTextual() ? p.asText()
                    : p.path("target").asText() + "/" + p.path("protocol").asText("tcp");
            String proto = spec.contains("/") ? spec.substring(spec.indexOf('/') + 1) : "tcp";
            String ports = spec.contains("/") ? spec.substring(0, spec.indexOf('/')) : spec;
            published.add(ports.substring(ports.lastIndexOf(':') + 1) + "/" + proto);
        });
        assertThat(published).as("compose publishes exactly the tcp/udp source ports of %s", ROOT.relativize(file))
                .containsExactlyInAnyOrderElementsOf(sourcePorts(cfg));
        List<String> check = healthCheck(runtimeStage(stages()));
        assertThat(MonitoringConfig.of(cfg).jmx().port()).as("%s opens the JMX port the image's HEALTHCHECK reads",
                ROOT.relativize(file)).isEqualTo(port(after(check, "--jmx", "HEALTHCHECK")));
    }

    @Test
    void composeRouterConfigurationNamesTheComposeServicesOnThePortsTheyListenOn() throws Exception {
        JsonNode compose = compose();
        JsonNode services = compose.path("services");
        RouterConfig cfg = ComponentTypes.loader().load(composeRouterConfig());
        Set<String> dependsOn = new LinkedHashSet<>();
        services.path("logrouter").path("depends_on").fieldNames().forEachRemaining(dependsOn::add);
        services.path("logrouter").path("depends_on").forEach(n -> {
            if (n.isTextual()) {
                dependsOn.add(n.asText());
            }
        });
        int kafkaSinks = 0;
        int esSinks = 0;
        for (var sink : cfg.sinks()) {
            if (sink instanceof KafkaSinkConfig k) {
                kafkaSinks++;
                for (String server : k.bootstrapServers().split(",")) {
                    String host = host(server.strip());
                    int port = port(server.strip());
                    JsonNode service = services.path(host);
                    assertThat(service.isMissingNode()).as("Kafka sink %s: bootstrap host %s is a compose service",
                            k.name(), host).isFalse();
                    Map<String, String> env = environment(service);
                    String advertised = env.getOrDefault("KAFKA_ADVERTISED_LISTENERS", "");
                    String listener = null;
                    for (String l : advertised.split(",")) {
                        URI u = URI.create(l.strip().toLowerCase());
                        if (host.equals(u.getHost()) && u.getPort() == port) {
                            listener = l.strip().substring(0, l.strip().indexOf("://"));
                        }
                    }
                    assertThat(listener).as("Kafka sink %s: service %s advertises a listener %s:%d "
                            + "(KAFKA_ADVERTISED_LISTENERS=%s)", k.name(), host, host, port, advertised).isNotNull();
                    assertThat(env.getOrDefault("KAFKA_LISTENERS", ""))
                            .as("Kafka sink %s: service %s listens on port %d with listener %s", k.name(), host, port, listener)
                            .containsPattern("(^|,)\\s*" + Pattern.quote(listener) + "://[^,:]*:" + port + "\\s*(,|$)");
                    assertThat(dependsOn).as("logrouter depends_on its Kafka service %s", host).contains(host);
                }
            } else if (sink instanceof ElasticsearchSinkConfig e) {
                esSinks++;
                for (String url : e.hosts()) {
                    URI u = URI.create(url);
                    JsonNode service = services.path(u.getHost());
                    assertThat(service.isMissingNode()).as("Elasticsearch sink %s: host %s is a compose service",
                            e.name(), u.getHost()).isFalse();
                    String httpPort = environment(service).getOrDefault("http.port", "9200"); // ES's default
                    assertThat(u.getPort()).as("Elasticsearch sink %s: %s uses the port service %s listens on "
                            + "(http.port %s)", e.name(), url, u.getHost(), httpPort).isEqualTo(Integer.parseInt(httpPort));
                    assertThat(dependsOn).as("logrouter depends_on its Elasticsearch service %s", u.getHost())
                            .contains(u.getHost());
                }
            }
        }
        assertThat(kafkaSinks).as("compose's router configuration has a Kafka sink").isPositive();
        assertThat(esSinks).as("compose's router configuration has an Elasticsearch sink").isPositive();
        for (String dep : dependsOn) {
            JsonNode condition = services.path("logrouter").path("depends_on").path(dep).path("condition");
            if ("service_healthy".equals(condition.asText())) {
                assertThat(services.path(dep).has("healthcheck"))
                        .as("logrouter waits for %s to be healthy, so %s has a healthcheck", dep, dep).isTrue();
            }
        }
    }

    // ---- config/logrouter.service -----------------------------------------------------------------------------

    @Test
    void systemdUnitUsesTheImageLayoutAndANonRootUser() throws Exception {
        Map<String, String> service = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(ROOT.resolve("config/logrouter.service"), StandardCharsets.UTF_8)) {
            String l = line.strip();
            if (l.startsWith("[")) {
                section = l;
            } else if (section.equals("[Service]") && !l.startsWith("#") && l.contains("=")) {
                service.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1));
            }
        }
        Stage runtime = runtimeStage(stages());
        List<String> exec = List.of(service.getOrDefault("ExecStart", "").split("\\s+"));
        assertThat(exec.get(0)).as("ExecStart runs java: %s", exec).endsWith("/java");
        assertThat(after(exec, "-jar", "ExecStart")).as("systemd ExecStart runs the jar where the image has it")
                .isEqualTo(runtimeJar(runtime));
        assertThat(exec.get(exec.indexOf("-jar") + 2)).as("systemd ExecStart runs the router").isEqualTo("run");
        assertThat(after(exec, "--config", "ExecStart")).as("systemd ExecStart reads the configuration where the image has it")
                .isEqualTo(cmdConfigPath(runtime));
        assertThat(service.get("WorkingDirectory")).as("systemd WorkingDirectory is the image's WORKDIR")
                .isEqualTo(runtime.last("WORKDIR").args());
        assertThat(service.get("User")).as("systemd unit runs as a non-root User").isNotNull().isNotIn("root", "0");
        assertThat(service.get("KillSignal")).as("SIGTERM is the router's clean stop").isEqualTo("SIGTERM");
        assertThat(Integer.parseInt(service.getOrDefault("TimeoutStopSec", "0").replace("s", "")))
                .as("TimeoutStopSec leaves the router its default stop-timeout")
                .isGreaterThan((int) (dev.logrouter.core.config.PipelineConfig.DEFAULT_STOP_TIMEOUT.nanos() / 1_000_000_000L));
        assertThat(service.get("ReadWritePaths")).as("the router may write its working directory under ProtectSystem")
                .contains(runtime.last("WORKDIR").args());
    }
}
