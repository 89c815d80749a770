package io.kubepekko.agent.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.logging.KubeJsonEncoder;
import io.kubepekko.api.logging.LogSettings;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AgentFlagsTest {

    private static AgentSettings settings(String... args) {
        AgentFlags.Parsed parsed = AgentFlags.parse(args);
        if (parsed instanceof AgentFlags.Parsed.Run run) {
            return run.settings();
        }
        return fail("expected settings for " + List.of(args) + ", got " + parsed);
    }

    private static String error(String... args) {
        return assertInstanceOf(
                        AgentFlags.Parsed.Invalid.class,
                        AgentFlags.parse(args),
                        List.of(args).toString())
                .message();
    }

    @Test
    void defaultsAreTheKubelets() throws Exception {
        AgentSettings s = settings();
        assertEquals(Optional.empty(), s.kubeconfig());
        assertTrue(s.standalone());
        assertEquals(Optional.empty(), s.hostnameOverride());
        assertEquals(Optional.empty(), s.providerId());
        assertEquals(List.of(), s.nodeIps());
        assertEquals(Map.of(), s.nodeLabels());
        assertTrue(s.registerNode());
        assertTrue(s.registerSchedulable());
        assertEquals(Duration.ofSeconds(10), s.nodeStatusUpdateFrequency());
        assertEquals(110, s.maxPods());
        assertEquals(Optional.empty(), s.podManifestPath());
        assertEquals(Duration.ofSeconds(20), s.fileCheckFrequency());
        assertEquals(Optional.empty(), s.manifestUrl());
        assertEquals(Map.of(), s.manifestUrlHeaders());
        assertEquals(Duration.ofSeconds(20), s.httpCheckFrequency());
        assertEquals(
                URI.create("unix:///run/containerd/containerd.sock"), s.containerRuntimeEndpoint());
        assertEquals(Path.of("/var/lib/kubelet"), s.rootDir());
        assertEquals(10L * 1024 * 1024, s.containerLogMaxSizeBytes());
        assertEquals(5, s.containerLogMaxFiles());
        assertEquals(InetAddress.getByName("0.0.0.0"), s.address());
        assertEquals(10250, s.port());
    }

    static Stream<Arguments> everyFlag() throws Exception {
        return Stream.of(
                Arguments.of(
                        List.of("--kubeconfig", "/etc/kube/agent.conf"),
                        (Function<AgentSettings, Object>) AgentSettings::kubeconfig,
                        Optional.of(Path.of("/etc/kube/agent.conf"))),
                Arguments.of(
                        List.of("--hostname-override=  Node-A "),
                        (Function<AgentSettings, Object>) AgentSettings::hostnameOverride,
                        Optional.of("node-a")),
                Arguments.of(
                        List.of("--provider-id", "kubepekko://node-a"),
                        (Function<AgentSettings, Object>) AgentSettings::providerId,
                        Optional.of("kubepekko://node-a")),
                Arguments.of(
                        List.of("--address", "127.0.0.1"),
                        (Function<AgentSettings, Object>) AgentSettings::address,
                        InetAddress.getByName("127.0.0.1")),
                Arguments.of(
                        List.of("--address=::"),
                        (Function<AgentSettings, Object>) AgentSettings::address,
                        InetAddress.getByName("::")),
                Arguments.of(
                        List.of("--port", "0"),
                        (Function<AgentSettings, Object>) AgentSettings::port,
                        0),
                Arguments.of(
                        List.of("--port=10251"),
                        (Function<AgentSettings, Object>) AgentSettings::port,
                        10251),
                Arguments.of(
                        List.of("--node-ip", "10.0.0.7"),
                        (Function<AgentSettings, Object>) AgentSettings::nodeIps,
                        List.of(InetAddress.getByName("10.0.0.7"))),
                Arguments.of(
                        List.of("--node-ip=10.0.0.7,fd00::7"),
                        (Function<AgentSettings, Object>) AgentSettings::nodeIps,
                        List.of(
                                InetAddress.getByName("10.0.0.7"),
                                InetAddress.getByName("fd00::7"))),
                Arguments.of(
                        List.of(
                                "--node-labels",
                                "zone=a, disk=ssd,node.kubernetes.io/pool=p1",
                                "--node-labels=gpu"),
                        (Function<AgentSettings, Object>) AgentSettings::nodeLabels,
                        Map.of(
                                "zone",
                                "a",
                                "disk",
                                "ssd",
                                "node.kubernetes.io/pool",
                                "p1",
                                "gpu",
                                "")),
                Arguments.of(
                        List.of("--register-node=false"),
                        (Function<AgentSettings, Object>) AgentSettings::registerNode,
                        false),
                Arguments.of(
                        List.of("--register-node=F"),
                        (Function<AgentSettings, Object>) AgentSettings::registerNode,
                        false),
                Arguments.of(
                        List.of("--register-node=0", "--register-node"),
                        (Function<AgentSettings, Object>) AgentSettings::registerNode,
                        true),
                Arguments.of(
                        List.of("--register-schedulable=false"),
                        (Function<AgentSettings, Object>) AgentSettings::registerSchedulable,
                        false),
                Arguments.of(
                        List.of("--register-schedulable=True"),
                        (Function<AgentSettings, Object>) AgentSettings::registerSchedulable,
                        true),
                Arguments.of(
                        List.of("--node-status-update-frequency", "1m30s"),
                        (Function<AgentSettings, Object>) AgentSettings::nodeStatusUpdateFrequency,
                        Duration.ofSeconds(90)),
                Arguments.of(
                        List.of("--max-pods", "20", "--max-pods=30"),
                        (Function<AgentSettings, Object>) AgentSettings::maxPods,
                        30),
                Arguments.of(
                        List.of("--max-pods=0"),
                        (Function<AgentSettings, Object>) AgentSettings::maxPods,
                        0),
                Arguments.of(
                        List.of("--pod-manifest-path", "/etc/kubernetes/manifests"),
                        (Function<AgentSettings, Object>) AgentSettings::podManifestPath,
                        Optional.of(Path.of("/etc/kubernetes/manifests"))),
                Arguments.of(
                        List.of("--file-check-frequency=500ms"),
                        (Function<AgentSettings, Object>) AgentSettings::fileCheckFrequency,
                        Duration.ofMillis(500)),
                Arguments.of(
                        List.of("--manifest-url", "http://127.0.0.1:8000/pods.yaml"),
                        (Function<AgentSettings, Object>) AgentSettings::manifestUrl,
                        Optional.of(URI.create("http://127.0.0.1:8000/pods.yaml"))),
                Arguments.of(
                        List.of(
                                "--manifest-url-header",
                                "a:hello,b:again,c:world",
                                "--manifest-url-header=b:beautiful"),
                        (Function<AgentSettings, Object>) AgentSettings::manifestUrlHeaders,
                        Map.of(
                                "a",
                                List.of("hello"),
                                "b",
                                List.of("again", "beautiful"),
                                "c",
                                List.of("world"))),
                Arguments.of(
                        List.of("--manifest-url-header", "Authorization: Bearer a:b"),
                        (Function<AgentSettings, Object>) AgentSettings::manifestUrlHeaders,
                        Map.of("Authorization", List.of("Bearer a:b"))),
                Arguments.of(
                        List.of("--http-check-frequency", "2h"),
                        (Function<AgentSettings, Object>) AgentSettings::httpCheckFrequency,
                        Duration.ofHours(2)),
                Arguments.of(
                        List.of("--container-runtime-endpoint", "unix:///tmp/c/containerd.sock"),
                        (Function<AgentSettings, Object>) AgentSettings::containerRuntimeEndpoint,
                        URI.create("unix:///tmp/c/containerd.sock")),
                Arguments.of(
                        List.of("--container-runtime-endpoint=/tmp/c/containerd.sock"),
                        (Function<AgentSettings, Object>) AgentSettings::containerRuntimeEndpoint,
                        URI.create("unix:///tmp/c/containerd.sock")),
                Arguments.of(
                        List.of("--root-dir", "/tmp/agent"),
                        (Function<AgentSettings, Object>) AgentSettings::rootDir,
                        Path.of("/tmp/agent")),
                // Relative paths are made absolute: the runtime resolves mount sources against its
                // own directories.
                Arguments.of(
                        List.of("--root-dir", "./data/agent/../agent"),
                        (Function<AgentSettings, Object>) AgentSettings::rootDir,
                        Path.of("").toAbsolutePath().resolve("data/agent")),
                Arguments.of(
                        List.of("--pod-manifest-path", "manifests"),
                        (Function<AgentSettings, Object>) AgentSettings::podManifestPath,
                        Optional.of(Path.of("").toAbsolutePath().resolve("manifests"))),
                Arguments.of(
                        List.of("--container-log-max-size", "1.5Ki"),
                        (Function<AgentSettings, Object>) AgentSettings::containerLogMaxSizeBytes,
                        1536L),
                Arguments.of(
                        List.of("--container-log-max-size=1G"),
                        (Function<AgentSettings, Object>) AgentSettings::containerLogMaxSizeBytes,
                        1_000_000_000L),
                Arguments.of(
                        List.of("--container-log-max-files", "2"),
                        (Function<AgentSettings, Object>) AgentSettings::containerLogMaxFiles,
                        2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFlag")
    void readsEveryFlag(List<String> args, Function<AgentSettings, Object> field, Object expected) {
        assertEquals(expected, field.apply(settings(args.toArray(String[]::new))));
    }

    @Test
    void kubeconfigSelectsApiServerMode() {
        assertFalse(settings("--kubeconfig=/tmp/k").standalone());
    }

    @Test
    void booleanFlagDoesNotTakeTheNextArgumentAsPflag() {
        assertEquals("unknown command \"false\"", error("--register-node", "false"));
    }

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(List.of("--foo"), "unknown flag: --foo"),
                Arguments.of(List.of("--foo=bar"), "unknown flag: --foo"),
                Arguments.of(List.of("-x"), "unknown shorthand flag: 'x' in -x"),
                Arguments.of(List.of("run"), "unknown command \"run\""),
                Arguments.of(List.of("--max-pods"), "flag needs an argument: --max-pods"),
                Arguments.of(
                        List.of("--max-pods", "many"),
                        "invalid argument \"many\" for \"--max-pods\" flag: strconv.ParseInt: parsing \"many\": invalid syntax"),
                Arguments.of(
                        List.of("--max-pods=99999999999"),
                        "invalid argument \"99999999999\" for \"--max-pods\" flag: strconv.ParseInt: parsing \"99999999999\": value out of range"),
                Arguments.of(
                        List.of("--max-pods=many", "--max-pods=3"),
                        "invalid argument \"many\" for \"--max-pods\" flag: strconv.ParseInt: parsing \"many\": invalid syntax"),
                Arguments.of(
                        List.of("--max-pods=many", "--help"),
                        "invalid argument \"many\" for \"--max-pods\" flag: strconv.ParseInt: parsing \"many\": invalid syntax"),
                Arguments.of(
                        List.of(
                                "--node-status-update-frequency",
                                "10s",
                                "--pod-manifest-path=/m",
                                "--max-pod=3"),
                        "unknown flag: --max-pod"),
                Arguments.of(
                        List.of("--max-pods=-1"),
                        "invalid argument \"-1\" for \"--max-pods\" flag: maxPods must not be a negative number"),
                Arguments.of(
                        List.of("--register-node=maybe"),
                        "invalid argument \"maybe\" for \"--register-node\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax"),
                Arguments.of(
                        List.of("--register-schedulable="),
                        "invalid argument \"\" for \"--register-schedulable\" flag: strconv.ParseBool: parsing \"\": invalid syntax"),
                Arguments.of(
                        List.of("--file-check-frequency", "20"),
                        "invalid argument \"20\" for \"--file-check-frequency\" flag: time: invalid duration \"20\""),
                Arguments.of(
                        List.of("--http-check-frequency=soon"),
                        "invalid argument \"soon\" for \"--http-check-frequency\" flag: time: invalid duration \"soon\""),
                Arguments.of(
                        List.of("--node-status-update-frequency=0s"),
                        "invalid argument \"0s\" for \"--node-status-update-frequency\" flag: must be a positive duration"),
                Arguments.of(
                        List.of("--node-ip", "10.0.0.300"),
                        "invalid argument \"10.0.0.300\" for \"--node-ip\" flag: could not parse \"10.0.0.300\""),
                Arguments.of(
                        List.of("--node-ip", "node-a.example"),
                        "invalid argument \"node-a.example\" for \"--node-ip\" flag: could not parse \"node-a.example\""),
                Arguments.of(
                        List.of("--node-ip", "10.0.0.1,10.0.0.2"),
                        "invalid argument \"10.0.0.1,10.0.0.2\" for \"--node-ip\" flag: must contain either a single IP or a dual-stack pair of IPs"),
                Arguments.of(
                        List.of("--node-labels", "bad key=v"),
                        "invalid argument \"bad key=v\" for \"--node-labels\" flag: invalid node labels: 'bad key' - name part must consist of"
                                + " alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
                                + " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is"
                                + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
                Arguments.of(
                        List.of("--node-labels", "k=-v-"),
                        "invalid argument \"k=-v-\" for \"--node-labels\" flag: invalid node labels: '-v-' - a valid label must be an"
                                + " empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
                                + " alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is"
                                + " '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
                Arguments.of(
                        List.of(
                                "--node-labels",
                                "node-role.kubernetes.io/master=,kubernetes.io/hostname=x"),
                        "invalid argument \"node-role.kubernetes.io/master=,kubernetes.io/hostname=x\" for \"--node-labels\" flag:"
                                + " unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [node-role.kubernetes.io/master];"
                                + " --node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (kubelet.kubernetes.io,"
                                + " node.kubernetes.io) or be in the specifically allowed set (beta.kubernetes.io/arch,"
                                + " beta.kubernetes.io/instance-type, beta.kubernetes.io/os, failure-domain.beta.kubernetes.io/region,"
                                + " failure-domain.beta.kubernetes.io/zone, kubernetes.io/arch, kubernetes.io/hostname, kubernetes.io/os,"
                                + " node.kubernetes.io/instance-type, topology.kubernetes.io/region, topology.kubernetes.io/zone)"),
                Arguments.of(
                        List.of("--manifest-url-header", "a:1,novalue"),
                        "invalid argument \"a:1,novalue\" for \"--manifest-url-header\" flag: malformed pair, expect string:string"),
                Arguments.of(
                        List.of("--manifest-url", "ftp://host/pods"),
                        "invalid argument \"ftp://host/pods\" for \"--manifest-url\" flag: must be an http or https URL"),
                Arguments.of(
                        List.of("--container-runtime-endpoint", "tcp://127.0.0.1:1234"),
                        "invalid argument \"tcp://127.0.0.1:1234\" for \"--container-runtime-endpoint\" flag: protocol \"tcp\" not supported"),
                Arguments.of(
                        List.of("--container-runtime-endpoint="),
                        "invalid argument \"\" for \"--container-runtime-endpoint\" flag: the containerRuntimeEndpoint was not specified or empty"),
                Arguments.of(
                        List.of("--root-dir="),
                        "invalid argument \"\" for \"--root-dir\" flag: must not be empty"),
                Arguments.of(
                        List.of("--kubeconfig="),
                        "invalid argument \"\" for \"--kubeconfig\" flag: must not be empty"),
                Arguments.of(
                        List.of("--container-log-max-size", "10MB"),
                        "invalid argument \"10MB\" for \"--container-log-max-size\" flag: quantities must match the regular expression"
                                + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                Arguments.of(
                        List.of("--container-log-max-files", "1"),
                        "invalid argument \"1\" for \"--container-log-max-files\" flag: containerLogMaxFiles must be greater than 1"),
                Arguments.of(
                        List.of("--address", "localhost"),
                        "invalid argument \"localhost\" for \"--address\" flag: \"localhost\" is not a valid IP address"),
                Arguments.of(
                        List.of("--port", "65536"),
                        "invalid argument \"65536\" for \"--port\" flag: port (--port) 65536 must be between 0 and 65535, inclusive"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCommandLines")
    void rejectsWithOneLineNamingTheFlag(List<String> args, String expected) {
        String message = error(args.toArray(String[]::new));
        assertEquals(expected, message);
        assertFalse(message.contains("\n"), "one line");
    }

    @Test
    void helpAndVersionAreRecognizedAnywhere() {
        assertInstanceOf(AgentFlags.Parsed.Help.class, AgentFlags.parse("-h"));
        assertInstanceOf(AgentFlags.Parsed.Help.class, AgentFlags.parse("--max-pods=3", "--help"));
        assertInstanceOf(AgentFlags.Parsed.Version.class, AgentFlags.parse("--version"));
    }

    @Test
    void helpListsEveryFlagWithItsDefault() {
        String usage = AgentFlags.usage();
        for (Flag<?> flag : AgentFlags.ALL) {
            assertTrue(
                    usage.contains(
                            flag.option()
                                    + (flag.type().isEmpty() ? " " : " " + flag.type() + " ")),
                    flag.name());
        }
        assertTrue(usage.contains("--file-check-frequency duration"));
        assertTrue(usage.contains("(default 20s)"));
        assertTrue(usage.contains("(default \"unix:///run/containerd/containerd.sock\")"));
        assertTrue(usage.contains("(default 110)"));
        assertTrue(usage.contains("(default true)"));
    }

    private static LogSettings logging(String... args) {
        AgentFlags.Parsed parsed = AgentFlags.parse(args);
        if (parsed instanceof AgentFlags.Parsed.Run run) {
            return run.logging();
        }
        return fail("expected settings for " + List.of(args) + ", got " + parsed);
    }

    @Test
    void theLoggingFlagsAreTheKubeletsWithEveryFormOfV() {
        assertEquals(new LogSettings("text", 0), logging());
        assertEquals(new LogSettings("json", 4), logging("--logging-format=json", "-v", "4"));
        assertEquals(new LogSettings("text", 2), logging("--logging-format", "text", "-v2"));
        assertEquals(new LogSettings("text", 3), logging("-v=3"));
        assertEquals(new LogSettings("text", 6), logging("--v=6"));
        assertEquals(new LogSettings("text", 7), logging("--v", "7", "--max-pods=3"));
        assertEquals(3, settings("-v", "5", "--max-pods=3").maxPods());
    }

    @Test
    void aLoggingConfigurationTheKubeletRefusesIsRefusedInItsWords() {
        // The kubelet validates its configuration's logging field once the flags are parsed.
        assertEquals(
                "initialize logging: logging.format: Invalid value: \"xml\": Unsupported log format",
                error("--logging-format", "xml"));
        assertEquals(
                "initialize logging: logging.verbosity: Invalid value: 4294967295: Must be <="
                        + " 2147483647",
                error("-v", "4294967295"));
        assertEquals(
                "invalid argument \"-1\" for \"-v, --v\" flag: strconv.ParseUint: parsing"
                        + " \"-1\": invalid syntax",
                error("-v=-1"));
        assertEquals(
                "invalid argument \"x\" for \"-v, --v\" flag: strconv.ParseUint: parsing"
                        + " \"x\": invalid syntax",
                error("--v", "x"));
    }

    @Test
    void jsonPutsKubesEncoderOnTheConsoleAndVSetsTheRootLevel() {
        LoggerContext context = new LoggerContext();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        // named as logback's default configuration names it: the agent may run without a
        // logback.xml of its own
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setName("console");
        console.setContext(context);
        PatternLayoutEncoder pattern = new PatternLayoutEncoder();
        pattern.setContext(context);
        pattern.setPattern("%msg%n");
        pattern.start();
        console.setEncoder(pattern);
        console.start();
        root.addAppender(console);

        logging("-v", "1").apply(context);
        assertEquals(Level.INFO, root.getLevel());
        assertInstanceOf(PatternLayoutEncoder.class, console.getEncoder());

        logging("--logging-format=json", "-v", "4").apply(context);
        assertEquals(Level.DEBUG, root.getLevel());
        assertInstanceOf(KubeJsonEncoder.class, console.getEncoder());
        assertEquals("System.out", console.getTarget());
        assertTrue(console.isStarted());
    }
}
