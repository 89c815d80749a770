package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Named.named;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.admission.AdmissionPluginSelection;
import io.kubepekko.api.admission.tolerations.DefaultTolerationSeconds;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.definition.RuntimeConfig;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.logging.LogSettings;
import io.kubepekko.api.logging.LoggingFlags;
import io.kubepekko.api.meta.GoDurations;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.persistence.StorageSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Command-line flags of the API server, parsed as kube-apiserver (pflag) parses them. */
class ApiServerFlagsTest {

    private static ApiServerSettings settings(String... args) throws ApiServerFlags.UsageException {
        ApiServerFlags.Parsed p = ApiServerFlags.parse(args);
        assertFalse(p.help());
        assertFalse(p.version());
        return p.settings();
    }

    private static String error(String... args) {
        return assertThrows(ApiServerFlags.UsageException.class, () -> ApiServerFlags.parse(args))
                .getMessage();
    }

    /**
     * What no flag gives: HTTPS on kube-apiserver's secure port on every interface, its only
     * listener.
     */
    private static final ApiServerSettings FLAG_DEFAULTS =
            new ApiServerSettings(Path.of("data"), "0.0.0.0", 6443, Duration.ZERO, Duration.ZERO);

    @Test
    void noFlagsGiveTheDefaults() throws Exception {
        assertEquals(FLAG_DEFAULTS, settings());
    }

    @Test
    void theSettingsDefaultsAreTheFlagsDefaults() {
        assertEquals(FLAG_DEFAULTS, ApiServerSettings.defaults());
    }

    static Stream<Arguments> everyFlag() {
        return Stream.of(
                Arguments.of(
                        named("--data-dir", new String[] {"--data-dir", "/var/lib/kp"}),
                        FLAG_DEFAULTS.withDataDir(Path.of("/var/lib/kp"))),
                Arguments.of(
                        named("--bind-address IPv4", new String[] {"--bind-address", "127.0.0.1"}),
                        new ApiServerSettings(
                                Path.of("data"), "127.0.0.1", 6443, Duration.ZERO, Duration.ZERO)),
                Arguments.of(
                        named("--bind-address IPv6", new String[] {"--bind-address", "::1"}),
                        new ApiServerSettings(
                                Path.of("data"), "::1", 6443, Duration.ZERO, Duration.ZERO)),
                Arguments.of(
                        named("--secure-port", new String[] {"--secure-port", "8443"}),
                        FLAG_DEFAULTS.withPort(8443)),
                Arguments.of(
                        named(
                                "--secure-port 0 picks a free port",
                                new String[] {"--secure-port", "0"}),
                        FLAG_DEFAULTS.withPort(0)),
                Arguments.of(
                        named(
                                "--livez-grace-period",
                                new String[] {"--livez-grace-period", "1m30s"}),
                        new ApiServerSettings(
                                Path.of("data"),
                                "0.0.0.0",
                                6443,
                                Duration.ofSeconds(90),
                                Duration.ZERO)),
                Arguments.of(
                        named(
                                "--shutdown-delay-duration",
                                new String[] {"--shutdown-delay-duration", "250ms"}),
                        new ApiServerSettings(
                                Path.of("data"),
                                "0.0.0.0",
                                6443,
                                Duration.ZERO,
                                Duration.ofMillis(250))),
                Arguments.of(
                        named(
                                "--service-cluster-ip-range",
                                new String[] {"--service-cluster-ip-range", "10.96.0.0/12"}),
                        FLAG_DEFAULTS.withServices(
                                new ServiceRanges(
                                        Ipv4Cidr.parse("10.96.0.0/12"),
                                        PortRange.DEFAULT_NODE_PORTS))),
                Arguments.of(
                        named(
                                "--service-node-port-range",
                                new String[] {"--service-node-port-range", "20000-20100"}),
                        FLAG_DEFAULTS.withServices(
                                new ServiceRanges(
                                        Ipv4Cidr.parse("10.0.0.0/24"), new PortRange(20000, 101)))),
                Arguments.of(
                        named("--storage cassandra", new String[] {"--storage", "cassandra"}),
                        FLAG_DEFAULTS.withStorage(
                                new StorageFlags(StorageSettings.Profile.CASSANDRA, null, null))),
                Arguments.of(
                        named("--storage embedded", new String[] {"--storage", "embedded"}),
                        FLAG_DEFAULTS.withStorage(
                                new StorageFlags(StorageSettings.Profile.EMBEDDED, null, null))),
                Arguments.of(
                        named(
                                "--cassandra-contact-points",
                                new String[] {
                                    "--cassandra-contact-points",
                                    "10.0.0.1:9042,cass-2.example:9043,[::1]:9044"
                                }),
                        FLAG_DEFAULTS.withStorage(
                                new StorageFlags(
                                        null,
                                        List.of(
                                                "10.0.0.1:9042",
                                                "cass-2.example:9043",
                                                "[::1]:9044"),
                                        null))),
                Arguments.of(
                        named(
                                "--cassandra-keyspace",
                                new String[] {"--cassandra-keyspace", "prod_1"}),
                        FLAG_DEFAULTS.withStorage(new StorageFlags(null, null, "prod_1"))),
                Arguments.of(
                        named(
                                "--storage-quota-bytes",
                                new String[] {"--storage-quota-bytes", "536870912"}),
                        FLAG_DEFAULTS.withStorage(new StorageFlags(null, null, null, 536870912L))));
    }

    /**
     * Without the flag (or with 0) the quota is a share of the heap; the flag's value reaches the
     * server.
     */
    @Test
    void theStorageQuotaIsTheFlagsValueOrThirtyPercentOfTheMaxHeap() throws Exception {
        long heap = 512L * 1024 * 1024;
        assertEquals(
                heap / 100 * 30,
                BootSteps.storageQuota(settings().resolve().config(), heap).limit());
        assertEquals(
                heap / 100 * 30,
                BootSteps.storageQuota(settings("--storage-quota-bytes=0").resolve().config(), heap)
                        .limit());
        assertEquals(
                1000,
                BootSteps.storageQuota(
                                settings("--storage-quota-bytes=1000").resolve().config(), heap)
                        .limit());
    }

    /** A read unanswered this long is asked again (StrandedAsks): 2 s unless configured. */
    @Test
    void theReadReaskIntervalIsTwoSecondsUnlessConfigured() throws Exception {
        Config config = settings().resolve().config();
        assertEquals(
                Duration.ofSeconds(2),
                BootSteps.readSettings(settings(), config, Duration.ofSeconds(30)).reaskAfter());
        assertEquals(
                Duration.ofMillis(750),
                BootSteps.readSettings(
                                settings(),
                                ConfigFactory.parseString(BootSteps.READ_REASK_AFTER + " = 750ms")
                                        .withFallback(config),
                                Duration.ofSeconds(30))
                        .reaskAfter());
    }

    @Test
    void embeddedIsTheDefaultStorage() throws Exception {
        assertEquals(new StorageSettings.Embedded(Path.of("data")), settings().storageSettings());
        assertEquals(
                new StorageSettings.Cassandra(List.of("h:1"), "ks"),
                settings(
                                "--storage=cassandra",
                                "--cassandra-contact-points=h:1",
                                "--cassandra-keyspace=ks")
                        .storageSettings());
    }

    static Stream<Arguments> badStorageFlags() {
        return Stream.of(
                Arguments.of(
                        new String[] {"--storage", "h2"},
                        "invalid argument \"h2\" for \"--storage\" flag: must be embedded or cassandra"),
                Arguments.of(
                        new String[] {"--cassandra-contact-points", "10.0.0.1"},
                        "invalid argument \"10.0.0.1\" for \"--cassandra-contact-points\" flag: \"10.0.0.1\" is not host:port"),
                Arguments.of(
                        new String[] {"--cassandra-contact-points", "a:9042,"},
                        "invalid argument \"a:9042,\" for \"--cassandra-contact-points\" flag: \"\" is not host:port"),
                Arguments.of(
                        new String[] {"--cassandra-contact-points", "a:99999"},
                        "invalid argument \"a:99999\" for \"--cassandra-contact-points\" flag: \"a:99999\" is not host:port"),
                Arguments.of(
                        new String[] {"--cassandra-keyspace", "1abc"},
                        "invalid argument \"1abc\" for \"--cassandra-keyspace\" flag: must be a letter followed by"
                                + " at most 47 letters, digits or underscores"),
                Arguments.of(
                        new String[] {"--storage-quota-bytes", "-1"},
                        "invalid argument \"-1\" for \"--storage-quota-bytes\" flag: must be a number of bytes, 0 or more"),
                Arguments.of(
                        new String[] {"--storage-quota-bytes", "2Gi"},
                        "invalid argument \"2Gi\" for \"--storage-quota-bytes\" flag: must be a number of bytes, 0 or more"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badStorageFlags")
    void rejectsBadStorageFlags(String[] args, String message) {
        assertEquals(message, error(args));
    }

    @Test
    void serviceRangesDefaultAsKubeApiserversDo() throws Exception {
        ServiceRanges services = settings().services();
        assertEquals("10.0.0.0/24", services.clusterIpRange().toString());
        assertEquals("30000-32767", services.nodePortRange().toString());
    }

    @Test
    void helpDocumentsTheServiceRanges() {
        assertTrue(ApiServerFlags.USAGE.contains("--service-cluster-ip-range string"));
        assertTrue(ApiServerFlags.USAGE.contains("(default \"10.0.0.0/24\")"));
        assertTrue(ApiServerFlags.USAGE.contains("--service-node-port-range portRange"));
        assertTrue(ApiServerFlags.USAGE.contains("(default 30000-32767)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFlag")
    void parsesFlagWithSeparateValue(String[] args, ApiServerSettings expected) throws Exception {
        assertEquals(expected, settings(args));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyFlag")
    void parsesFlagWithEqualsValue(String[] args, ApiServerSettings expected) throws Exception {
        assertEquals(expected, settings(args[0] + "=" + args[1]));
    }

    @Test
    void parsesAllFlagsTogether() throws Exception {
        assertEquals(
                new ApiServerSettings(
                        Path.of("d"),
                        "127.0.0.1",
                        1234,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(5)),
                settings(
                        "--data-dir=d",
                        "--bind-address",
                        "127.0.0.1",
                        "--secure-port=1234",
                        "--livez-grace-period",
                        "10s",
                        "--shutdown-delay-duration=5s"));
    }

    @Test
    void lastOccurrenceOfAFlagWins() throws Exception {
        assertEquals(7, settings("--secure-port", "6", "--secure-port=7").port());
    }

    @Test
    void valueAfterEqualsMayContainEquals() throws Exception {
        assertEquals(Path.of("a=b"), settings("--data-dir=a=b").dataDir());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-h", "--help"})
    void helpStopsParsing(String flag) throws Exception {
        ApiServerFlags.Parsed p = ApiServerFlags.parse(new String[] {flag, "--no-such-flag"});
        assertTrue(p.help());
        assertTrue(ApiServerFlags.USAGE.contains("--shutdown-delay-duration"));
    }

    @Test
    void versionIsReported() throws Exception {
        assertTrue(ApiServerFlags.parse(new String[] {"--version"}).version());
    }

    /**
     * Every flag is declared once; --help is generated from the declarations, each with its type
     * and default.
     */
    @Test
    void helpListsEveryDeclaredFlagWithItsDefault() {
        List<Flag<?>> flags = ApiServerFlags.FLAGS.flags();
        assertEquals(51, flags.size());
        for (Flag<?> flag : flags) {
            // pflag shows a one-letter flag with its shorthand: "  -v, --v Level"
            String shown =
                    flag.name().length() == 1
                            ? "  -" + flag.name() + ", " + flag.option()
                            : "      " + flag.option();
            String line =
                    ApiServerFlags.USAGE
                            .lines()
                            .filter(l -> l.startsWith(shown + " "))
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    flag.option()
                                                            + " missing from\n"
                                                            + ApiServerFlags.USAGE));
            assertTrue(line.startsWith(shown + " " + flag.type() + " "), line);
            if (flag.defaultText() != null && !flag.defaultText().isEmpty()) {
                assertTrue(
                        line.endsWith(
                                "(default "
                                        + switch (flag.type()) {
                                            case "string" -> "\"" + flag.defaultText() + "\"";
                                            case "strings", "stringArray" ->
                                                    "[" + flag.defaultText() + "]";
                                            default -> flag.defaultText();
                                        }
                                        + ")"),
                        line);
            }
        }
        assertTrue(ApiServerFlags.USAGE.startsWith("Usage: apiserver [flags]\n"));
        assertTrue(ApiServerFlags.USAGE.contains("(default \"data\")"));
        assertTrue(ApiServerFlags.USAGE.contains("--secure-port int"));
        assertTrue(ApiServerFlags.USAGE.contains("(default 6443)"));
        assertTrue(ApiServerFlags.USAGE.contains("--bind-address string"));
        assertTrue(ApiServerFlags.USAGE.contains("(default \"0.0.0.0\")"));
        assertFalse(ApiServerFlags.USAGE.contains("--port "), "no plain port: kube's is gone");
        assertTrue(ApiServerFlags.USAGE.contains("--shutdown-delay-duration duration"));
        assertTrue(ApiServerFlags.USAGE.contains("(default 5m0s)"));
        assertTrue(ApiServerFlags.USAGE.contains("--storage-max-object-bytes int"));
        assertTrue(ApiServerFlags.USAGE.contains("(default 1572864)"));
        assertTrue(ApiServerFlags.USAGE.contains("  -h, --help"));
        assertTrue(ApiServerFlags.USAGE.contains("      --version"));
    }

    /**
     * The storage and cluster flags set only what is given (a --config file may set the rest), so
     * their defaults are the built-in configuration's: the help must show those.
     */
    @Test
    void theHelpShowsTheBuiltInConfigurationAsTheDefaultOfTheFileLayeredFlags() throws Exception {
        Config built = settings().resolve().config();
        assertEquals(
                ApiServerFlags.STORAGE.defaultText(), built.getString(StorageSettings.PROFILE));
        assertEquals(
                List.of(ApiServerFlags.CASSANDRA_CONTACT_POINTS.defaultText()),
                built.getStringList(StorageSettings.CASSANDRA_CONTACT_POINTS));
        assertEquals(
                ApiServerFlags.CASSANDRA_KEYSPACE.defaultText(),
                built.getString(StorageSettings.CASSANDRA_KEYSPACE));
        assertEquals(
                Long.parseLong(ApiServerFlags.STORAGE_MAX_OBJECT_BYTES.defaultText()),
                built.getBytes(ApiServerFlags.MAX_OBJECT_BYTES));
        assertEquals(
                Long.parseLong(ApiServerFlags.STORAGE_QUOTA_BYTES.defaultText()),
                built.getBytes(StorageFlags.QUOTA_BYTES));
        assertEquals(List.of(), built.getStringList("pekko.cluster.seed-nodes"));
        assertEquals("", ApiServerFlags.CLUSTER_SEED_NODES.defaultText());
        assertEquals(
                Integer.parseInt(ApiServerFlags.CLUSTER_PORT.defaultText()),
                built.getInt("pekko.remote.artery.canonical.port"));
        assertEquals(
                ApiServerFlags.CLUSTER_HOSTNAME.defaultText(),
                built.getString("pekko.remote.artery.canonical.hostname"));
    }

    /**
     * The regression of issue 24: any flag missing from the parser's switch was parsed as
     * --shutdown-delay-duration. Now a name is a flag only if it is declared.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "--shutdown-delay",
                "--shutdown-delay-durations",
                "--Port",
                "--etcd-servers",
                "--storage-backend",
                "--cluster-seed-node",
                "--data"
            })
    void aFlagMissingFromTheDeclarationsIsAnUnknownFlag(String flag) {
        assertEquals("unknown flag: " + flag, error(flag + "=5s"));
        assertEquals("unknown flag: " + flag, error(flag, "5s"));
    }

    /**
     * Each declared flag checks its own value and names itself (and the value) when it refuses it.
     * The audit paths take any text, and kube checks the audit log's format and mode only once the
     * log is enabled, with messages of its own (ApiServerAuditFlagsTest); likewise the
     * service-account issuers, audiences and JWKS URI are checked together, after parsing
     * (ServiceAccountFlagsTest).
     */
    @Test
    void aMistypedValueNamesItsFlag() {
        List<Flag<?>> anyText =
                List.of(
                        AuditFlags.AUDIT_POLICY_FILE,
                        AuditFlags.AUDIT_LOG_PATH,
                        AuditFlags.AUDIT_LOG_FORMAT,
                        AuditFlags.AUDIT_LOG_MODE,
                        ServiceAccountFlags.SERVICE_ACCOUNT_ISSUER,
                        ServiceAccountFlags.API_AUDIENCES,
                        ServiceAccountFlags.SERVICE_ACCOUNT_JWKS_URI,
                        // kube reads any text into the map; its keys are refused later, in
                        // kube's words (aRuntimeConfigKubeRefusesIsAUsageErrorInKubesWords)
                        ApiServerFlags.RUNTIME_CONFIG,
                        // pflag's string slices take any text; the names are refused once
                        // parsed, in kube's words
                        // (theAdmissionPluginFlagsAddToAndTakeFromTheDefaultsEachOccurrenceCounting)
                        AdmissionFlags.ENABLE_ADMISSION_PLUGINS,
                        AdmissionFlags.DISABLE_ADMISSION_PLUGINS,
                        // set once the flags are parsed, in component-base's words (below)
                        ApiServerFlags.FEATURE_GATES,
                        // validated once parsed, in component-base's words
                        // (theLoggingFlagsAreKubesAndAnUnknownFormatIsRefusedInKubesWords)
                        LoggingFlags.LOGGING_FORMAT);
        for (Flag<?> flag : ApiServerFlags.FLAGS.flags()) {
            if (anyText.contains(flag)) {
                continue;
            }
            // A path flag takes any text but an empty one.
            String bad =
                    List.of(
                                            ApiServerFlags.DATA_DIR,
                                            SecureServingFlags.TLS_CERT_FILE,
                                            SecureServingFlags.TLS_PRIVATE_KEY_FILE,
                                            SecureServingFlags.CLIENT_CA_FILE,
                                            SecureServingFlags.TOKEN_AUTH_FILE,
                                            ServiceAccountFlags.SERVICE_ACCOUNT_KEY_FILE,
                                            ServiceAccountFlags.SERVICE_ACCOUNT_SIGNING_KEY_FILE)
                                    .contains(flag)
                            ? ""
                            : "%";
            String message = error(flag.option() + "=" + bad);
            assertTrue(
                    message.startsWith(
                            "invalid argument \""
                                    + bad
                                    + "\" for \""
                                    + (flag.name().length() == 1
                                            ? "-" + flag.name() + ", " + flag.option()
                                            : flag.option())
                                    + "\" flag: "),
                    message);
        }
    }

    /**
     * kube-apiserver's insecure port is gone (off since 1.20, its {@code --insecure-port} and
     * {@code --port} flags removed in 1.24): HTTPS on {@code --secure-port} is the only listener.
     */
    @Test
    void thePlainPortFlagIsGone() {
        assertEquals("unknown flag: --port", error("--port", "8080"));
        assertEquals("unknown flag: --port", error("--port=0"));
    }

    @Test
    void runtimeConfigOccurrencesAddToOneMap() throws Exception {
        assertEquals(RuntimeConfig.NONE, settings().runtimeConfig());
        assertEquals(
                RuntimeConfig.parse(
                        List.of("batch/v1=false,networking.k8s.io/v1beta1", "batch/v1=true")),
                settings(
                                "--runtime-config=batch/v1=false,networking.k8s.io/v1beta1",
                                "--runtime-config",
                                "batch/v1=true")
                        .runtimeConfig());
        assertEquals(
                Map.of("batch/v1", "", "networking.k8s.io/v1beta1", ""),
                settings(
                                "--runtime-config=batch/v1=false,networking.k8s.io/v1beta1",
                                "--runtime-config=batch/v1")
                        .runtimeConfig()
                        .entries());
    }

    @Test
    void aRuntimeConfigKubeRefusesIsAUsageErrorInKubesWords() {
        assertEquals(
                "unknown api groups example.com", error("--runtime-config=example.com/v1=true"));
        assertEquals(
                "group version batch/v2 that has not been registered",
                error("--runtime-config", "batch/v2"));
        assertEquals(
                "invalid key with only api/all=false", error("--runtime-config=api/all=false"));
        assertEquals(
                "invalid value of apps/v1: yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax",
                error("--runtime-config=apps/v1=yes"));
    }

    @Test
    void theDefaultTolerationSecondsFlagsSetThePluginsTolerations() throws Exception {
        assertEquals(new DefaultTolerationSeconds(300, 300), settings().admission().tolerations());
        assertEquals(
                new DefaultTolerationSeconds(60, 7),
                settings(
                                "--default-not-ready-toleration-seconds=60",
                                "--default-unreachable-toleration-seconds",
                                "7")
                        .admission()
                        .tolerations());
        assertEquals(
                "invalid argument \"soon\" for \"--default-not-ready-toleration-seconds\" flag:"
                        + " strconv.ParseInt: parsing \"soon\": invalid syntax",
                error("--default-not-ready-toleration-seconds=soon"));
    }

    @Test
    void theAdmissionPluginFlagsAddToAndTakeFromTheDefaultsEachOccurrenceCounting()
            throws Exception {
        assertEquals(AdmissionPluginSelection.DEFAULT, settings().admission().plugins());
        AdmissionPluginSelection s =
                settings(
                                "--disable-admission-plugins=ResourceQuota,LimitRanger",
                                "--disable-admission-plugins",
                                "Priority",
                                "--enable-admission-plugins=",
                                "--enable-admission-plugins=NodeRestriction")
                        .admission()
                        .plugins();
        assertFalse(s.enabled("ResourceQuota"));
        assertFalse(s.enabled("LimitRanger"));
        assertFalse(s.enabled("Priority"));
        assertTrue(s.enabled("NodeRestriction"));
        assertTrue(s.enabled("ServiceAccount"));
        assertEquals(
                "enable-admission-plugins plugin \"Quota\" is unknown",
                error("--enable-admission-plugins=Quota"));
        assertEquals(
                "[Priority] in enable-admission-plugins and disable-admission-plugins overlapped",
                error(
                        "--enable-admission-plugins=Priority",
                        "--disable-admission-plugins=Priority"));
    }

    @Test
    void theLoggingFlagsAreKubesAndAnUnknownFormatIsRefusedInKubesWords() throws Exception {
        assertEquals(new LogSettings("text", 0), ApiServerFlags.parse(new String[0]).logging());
        assertEquals(
                new LogSettings("json", 4),
                ApiServerFlags.parse(new String[] {"--logging-format=json", "-v", "4"}).logging());
        assertEquals(
                new LogSettings("text", 6), ApiServerFlags.parse(new String[] {"--v=6"}).logging());
        assertEquals(
                "format: Invalid value: \"xml\": Unsupported log format",
                error("--logging-format", "xml"));
        assertEquals(
                "invalid argument \"-1\" for \"-v, --v\" flag: strconv.ParseUint: parsing"
                        + " \"-1\": invalid syntax",
                error("-v=-1"));
        assertEquals(
                "verbosity: Invalid value: 4294967295: Must be <= 2147483647",
                error("-v", "4294967295"));
    }

    @Test
    void rejectsUnknownFlag() {
        assertEquals("unknown flag: --insecure-port", error("--insecure-port", "8080"));
    }

    @Test
    void rejectsUnknownFlagWithEqualsValue() {
        assertEquals("unknown flag: --insecure-port", error("--insecure-port=8080"));
    }

    @Test
    void rejectsPositionalArgument() {
        assertEquals("unexpected argument \"serve\"", error("serve"));
    }

    @Test
    void rejectsFlagWithoutItsValue() {
        assertEquals("flag needs an argument: --secure-port", error("--secure-port"));
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(
                        named("port not a number", new String[] {"--secure-port", "https"}),
                        "invalid argument \"https\" for \"--secure-port\" flag: "),
                Arguments.of(
                        named("port above 65535", new String[] {"--secure-port=65536"}),
                        "invalid argument \"65536\" for \"--secure-port\" flag: "),
                Arguments.of(
                        named("negative port", new String[] {"--secure-port=-1"}),
                        "invalid argument \"-1\" for \"--secure-port\" flag: "),
                Arguments.of(
                        named(
                                "bind address a host name",
                                new String[] {"--bind-address", "localhost"}),
                        "invalid argument \"localhost\" for \"--bind-address\" flag: "),
                Arguments.of(
                        named(
                                "bind address out of range",
                                new String[] {"--bind-address", "256.1.1.1"}),
                        "invalid argument \"256.1.1.1\" for \"--bind-address\" flag: "),
                Arguments.of(
                        named("empty bind address", new String[] {"--bind-address="}),
                        "invalid argument \"\" for \"--bind-address\" flag: "),
                Arguments.of(
                        named("empty data dir", new String[] {"--data-dir="}),
                        "invalid argument \"\" for \"--data-dir\" flag: "),
                Arguments.of(
                        named("duration without unit", new String[] {"--livez-grace-period", "10"}),
                        "invalid argument \"10\" for \"--livez-grace-period\" flag: time: "),
                Arguments.of(
                        named("duration garbage", new String[] {"--shutdown-delay-duration=soon"}),
                        "invalid argument \"soon\" for \"--shutdown-delay-duration\" flag: time: invalid duration \"soon\""),
                Arguments.of(
                        named("negative duration", new String[] {"--shutdown-delay-duration=-5s"}),
                        "invalid argument \"-5s\" for \"--shutdown-delay-duration\" flag: "),
                Arguments.of(
                        named(
                                "cluster IP range not a CIDR",
                                new String[] {"--service-cluster-ip-range=10.0.0.1"}),
                        "invalid argument \"10.0.0.1\" for \"--service-cluster-ip-range\" flag: "
                                + "service-cluster-ip-range[0] is not a valid cidr"),
                Arguments.of(
                        named(
                                "cluster IP range IPv6",
                                new String[] {"--service-cluster-ip-range", "fd00::/108"}),
                        "invalid argument \"fd00::/108\" for \"--service-cluster-ip-range\" flag: IPv6"),
                Arguments.of(
                        named(
                                "cluster IP range dual-stack",
                                new String[] {
                                    "--service-cluster-ip-range", "10.0.0.0/24,fd00::/108"
                                }),
                        "invalid argument \"10.0.0.0/24,fd00::/108\" for "
                                + "\"--service-cluster-ip-range\" flag: dual-stack"),
                Arguments.of(
                        named(
                                "node port range reversed",
                                new String[] {"--service-node-port-range=32767-30000"}),
                        "invalid argument \"32767-30000\" for \"--service-node-port-range\" flag: "
                                + "end port cannot be less than start port: 32767-30000"),
                Arguments.of(
                        named(
                                "node port range garbage",
                                new String[] {"--service-node-port-range", "high"}),
                        "invalid argument \"high\" for \"--service-node-port-range\" flag: strconv.Atoi: "
                                + "parsing \"high\": invalid syntax"));
    }

    @Test
    void clusterFlagsDefaultToAOneNodeClusterOnAFreePort() throws Exception {
        assertEquals(new ClusterFlags(null, null, null), settings().cluster(), "no flag given");
        ApiServerSettings.Resolved resolved = settings().resolve();
        assertEquals(List.of(), resolved.seedNodes());
        assertEquals(0, resolved.config().getInt("pekko.remote.artery.canonical.port"));
        assertEquals(
                "127.0.0.1", resolved.config().getString("pekko.remote.artery.canonical.hostname"));
    }

    @Test
    void parsesClusterFlagsOnCassandra() throws Exception {
        ApiServerSettings s =
                settings(
                        "--storage=cassandra",
                        "--cluster-seed-nodes",
                        "10.0.0.1:2552,node-2.example:2553",
                        "--cluster-port=2552",
                        "--cluster-hostname",
                        "10.0.0.1");
        assertEquals(
                new ClusterFlags(List.of("10.0.0.1:2552", "node-2.example:2553"), 2552, "10.0.0.1"),
                s.cluster());
        Config c = s.cluster().toConfig();
        assertEquals(
                List.of("pekko://kubepekko@10.0.0.1:2552", "pekko://kubepekko@node-2.example:2553"),
                c.getStringList("pekko.cluster.seed-nodes"));
        assertEquals(2552, c.getInt("pekko.remote.artery.canonical.port"));
        assertEquals("10.0.0.1", c.getString("pekko.remote.artery.canonical.hostname"));
    }

    @Test
    void emptySeedNodesMeanJoinSelf() throws Exception {
        assertEquals(
                List.of(),
                settings("--storage=cassandra", "--cluster-seed-nodes=").cluster().seedNodes());
        assertEquals(
                List.of(),
                settings("--cluster-seed-nodes=").cluster().seedNodes(),
                "allowed on embedded: no peers");
    }

    @Test
    void seedNodesNeedTheCassandraProfile() {
        assertEquals(
                "invalid argument \"127.0.0.1:2552\" for \"--cluster-seed-nodes\" flag: a cluster of several "
                        + "servers needs --storage=cassandra",
                error("--cluster-seed-nodes=127.0.0.1:2552"));
        assertEquals(
                "invalid argument \"127.0.0.1:2552\" for \"--cluster-seed-nodes\" flag: a cluster of several "
                        + "servers needs --storage=cassandra",
                error("--cluster-seed-nodes=127.0.0.1:2552", "--storage=embedded"));
    }

    @Test
    void helpDocumentsTheClusterFlags() {
        assertTrue(ApiServerFlags.USAGE.contains("--cluster-seed-nodes strings"));
        assertTrue(ApiServerFlags.USAGE.contains("--cluster-port int"));
        assertTrue(ApiServerFlags.USAGE.contains("--cluster-hostname string"));
    }

    static Stream<Arguments> badClusterValues() {
        return Stream.of(
                Arguments.of(
                        new String[] {"--storage=cassandra", "--cluster-seed-nodes", "10.0.0.1"},
                        "invalid argument \"10.0.0.1\" for \"--cluster-seed-nodes\" flag: \"10.0.0.1\" is not host:port"),
                Arguments.of(
                        new String[] {
                            "--storage=cassandra", "--cluster-seed-nodes", "a:2552,,b:2552"
                        },
                        "invalid argument \"a:2552,,b:2552\" for \"--cluster-seed-nodes\" flag: \"\" is not host:port"),
                Arguments.of(
                        new String[] {"--cluster-port", "70000"},
                        "invalid argument \"70000\" for \"--cluster-port\" flag: must be a port number 0-65535"),
                Arguments.of(
                        new String[] {"--cluster-port=two"},
                        "invalid argument \"two\" for \"--cluster-port\" flag: must be a port number 0-65535"),
                Arguments.of(
                        new String[] {"--cluster-hostname="},
                        "invalid argument \"\" for \"--cluster-hostname\" flag: not an IP address or host name"),
                Arguments.of(
                        new String[] {"--cluster-hostname", "a b"},
                        "invalid argument \"a b\" for \"--cluster-hostname\" flag: not an IP address or host name"));
    }

    @ParameterizedTest
    @MethodSource("badClusterValues")
    void rejectsBadClusterFlags(String[] args, String message) {
        assertEquals(message, error(args));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void rejectsBadValueNamingFlagAndValue(String[] args, String messagePrefix) {
        String message = error(args);
        assertTrue(
                message.startsWith(messagePrefix),
                () -> "<" + message + "> should start with <" + messagePrefix + ">");
    }

    /**
     * {@code --feature-gates}, as kube-apiserver 1.35's component registry sets it once the flags
     * are parsed: every occurrence counts, and a refused gate is reported in component-base's words
     * alone (cobra's {@code Error: } line, no flag name).
     */
    @Nested
    class FeatureGatesFlag {
        @Test
        void everyOccurrenceCountsAndTheLaterEntryWins() throws Exception {
            FeatureGates gates =
                    settings(
                                    "--feature-gates=WatchList=false,StorageVersionAPI=true",
                                    "--feature-gates",
                                    "WatchList=true")
                            .reads()
                            .featureGates();
            assertTrue(gates.enabled(FeatureGates.WATCH_LIST));
            assertTrue(gates.enabled("StorageVersionAPI"));
            assertEquals(FeatureGates.defaults(), settings().reads().featureGates());
        }

        @Test
        void theGatesOfTheOtherComponentsAreAcceptedAsByKubeApiserver() throws Exception {
            FeatureGates gates =
                    settings(
                                    "--feature-gates=kube:InPlacePodVerticalScaling=true,"
                                            + "kube:GangScheduling=true,kube:WatchListClient=false")
                            .reads()
                            .featureGates();
            assertTrue(gates.enabled("GangScheduling"));
            assertFalse(gates.enabled("WatchListClient"));
            assertEquals(
                    "cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true",
                    error("--feature-gates", "InPlacePodVerticalScaling=false"));
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(
                strings = {
                    "APIListChunking=false",
                    "RemainingItemCount=false",
                    "EfficientWatchResumption=true",
                    "RemoveSelfLink=false"
                })
        void specsGatesAreUnrecognizedAsInKube135(String flag) {
            assertEquals(
                    "unrecognized feature gate: " + flag.substring(0, flag.indexOf('=')),
                    error("--feature-gates=" + flag));
        }

        @Test
        void aLockedGateCannotBeTurnedOff() {
            assertEquals(
                    "cannot set feature gate ConsistentListFromCache to false, feature is locked to true",
                    error("--feature-gates", "ConsistentListFromCache=false"));
        }

        @Test
        void aMalformedEntryIsReportedAsComponentBaseDoes() {
            assertEquals(
                    "invalid value of WatchList=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                    error("--feature-gates", "WatchList=maybe"));
        }

        @Test
        void settingAGaOrDeprecatedGateWarnsOnce() throws Exception {
            ApiServerFlags.Parsed p =
                    ApiServerFlags.parse(
                            new String[] {
                                "--feature-gates=RetryGenerateName=true,KMSv1=false,WatchList=true"
                            });
            assertEquals(
                    List.of(
                            "Setting GA feature gate RetryGenerateName=true. It will be removed in a future release.",
                            "Setting deprecated feature gate KMSv1=false. It will be removed in a future release."),
                    p.warnings());
        }

        @Test
        void helpDocumentsTheFlagAsKubeDoes() {
            assertTrue(
                    ApiServerFlags.USAGE.contains(
                            "--feature-gates colonSeparatedMultimapStringString "),
                    ApiServerFlags.USAGE);
        }
    }

    /**
     * {@code --config FILE}: an operator's HOCON file layered under the flags given and over the
     * built-in configuration. A flag at its default sets nothing, so the file may choose the
     * storage profile and the seed nodes.
     */
    @Nested
    class ConfigFile {
        @TempDir Path dir;

        private String file(String name, String hocon) throws IOException {
            Path f = dir.resolve(name);
            Files.writeString(f, hocon);
            return f.toString();
        }

        private static final String CLUSTERED =
                """
                kubepekko.storage {
                  profile = cassandra
                  cassandra { contact-points = ["cass-1:9042", "cass-2:9042"], keyspace = from_file }
                }
                pekko.cluster.seed-nodes = ["pekko://kubepekko@10.0.0.1:2552", "pekko://kubepekko@10.0.0.2:2552"]
                pekko.remote.artery.canonical { hostname = "10.0.0.1", port = 2552 }
                """;

        private ApiServerSettings.Resolved resolved(String... args) throws Exception {
            return settings(args).resolve();
        }

        @Test
        void theFileBeatsTheBuiltInConfiguration() throws Exception {
            String f =
                    file("watch.conf", "kubepekko.watch.max-events = 7\npekko.loglevel = WARNING");
            Config c = resolved("--config", f).config();
            assertEquals(7, c.getInt("kubepekko.watch.max-events"), "built-in: 10000");
            assertEquals("WARNING", c.getString("pekko.loglevel"), "built-in: INFO");
            assertEquals(
                    "3s",
                    c.getString("kubepekko.watch.wait-limit"),
                    "what the file leaves out stays built-in");
            assertEquals(settings("--config=" + f), settings("--config", f));
        }

        @Test
        void flagsLeftOutDoNotOverrideTheFile() throws Exception {
            ApiServerSettings.Resolved r = resolved("--config", file("clustered.conf", CLUSTERED));
            assertEquals(
                    new StorageSettings.Cassandra(
                            List.of("cass-1:9042", "cass-2:9042"), "from_file"),
                    r.storage(),
                    "not the default of --storage (embedded) nor of the cassandra flags");
            assertEquals(
                    List.of("pekko://kubepekko@10.0.0.1:2552", "pekko://kubepekko@10.0.0.2:2552"),
                    r.seedNodes());
            assertEquals(
                    2552,
                    r.config().getInt("pekko.remote.artery.canonical.port"),
                    "not --cluster-port's 0");
            assertEquals(
                    "10.0.0.1", r.config().getString("pekko.remote.artery.canonical.hostname"));
            assertEquals("cassandra", r.config().getString("kubepekko.storage.profile"));
            assertEquals(
                    "pekko.persistence.cassandra.journal",
                    r.config().getString("pekko.persistence.journal.plugin"),
                    "the profile the file selects brings its wiring");
        }

        @Test
        void flagsGivenBeatTheFile() throws Exception {
            String f = file("clustered.conf", CLUSTERED + "kubepekko.watch.max-events = 7");
            ApiServerSettings.Resolved r =
                    resolved(
                            "--config",
                            f,
                            "--cassandra-keyspace",
                            "from_flag",
                            "--cluster-port",
                            "2600",
                            "--cluster-hostname",
                            "node-3.example",
                            "--cluster-seed-nodes",
                            "node-3.example:2600");
            assertEquals(
                    new StorageSettings.Cassandra(
                            List.of("cass-1:9042", "cass-2:9042"), "from_flag"),
                    r.storage());
            assertEquals(
                    "from_flag",
                    r.config().getString("pekko.persistence.cassandra.journal.keyspace"));
            assertEquals(List.of("pekko://kubepekko@node-3.example:2600"), r.seedNodes());
            assertEquals(2600, r.config().getInt("pekko.remote.artery.canonical.port"));
            assertEquals(
                    "node-3.example",
                    r.config().getString("pekko.remote.artery.canonical.hostname"));
            assertEquals(7, r.config().getInt("kubepekko.watch.max-events"));

            ApiServerSettings.Resolved joinSelf = resolved("--config", f, "--cluster-seed-nodes=");
            assertEquals(
                    List.of(),
                    joinSelf.seedNodes(),
                    "an empty flag is given too: this node forms a cluster of its own");
            assertEquals(
                    new StorageSettings.Embedded(Path.of("data")),
                    resolved(
                                    "--config",
                                    file("profile.conf", "kubepekko.storage.profile = cassandra"),
                                    "--storage=embedded")
                            .storage());
        }

        @Test
        void maxObjectBytesDefaultsToEtcdsRequestLimitAndTheFlagBeatsTheFile() throws Exception {
            String key = "kubepekko.storage.max-object-bytes";
            assertEquals(1_572_864, resolved().config().getBytes(key));
            String f = file("limit.conf", key + " = 2m");
            assertEquals(2 * 1024 * 1024, resolved("--config", f).config().getBytes(key));
            assertEquals(
                    4096,
                    resolved("--config", f, "--storage-max-object-bytes", "4096")
                            .config()
                            .getBytes(key));
            assertEquals(4096, resolved("--storage-max-object-bytes=4096").config().getBytes(key));
            assertEquals(
                    "invalid argument \"0\" for \"--storage-max-object-bytes\" flag: must be a number of bytes "
                            + "from 1 to 2147483647",
                    error("--storage-max-object-bytes", "0"));
            assertEquals(
                    "invalid argument \"1.5Mi\" for \"--storage-max-object-bytes\" flag: must be a number of "
                            + "bytes from 1 to 2147483647",
                    error("--storage-max-object-bytes=1.5Mi"));
        }

        @Test
        void theEmbeddedDatabaseFollowsTheDataDirWhateverTheFileSays() throws Exception {
            Config c =
                    resolved(
                                    "--data-dir",
                                    dir.resolve("d").toString(),
                                    "--config",
                                    file(
                                            "h2.conf",
                                            "kubepekko.storage.embedded.url = \"jdbc:h2:mem:elsewhere\""))
                            .config();
            assertTrue(
                    c.getString("kubepekko.storage.embedded.url")
                            .startsWith("jdbc:h2:file:" + dir.resolve("d")),
                    c.getString("kubepekko.storage.embedded.url"));
            assertEquals(
                    c.getString("kubepekko.storage.embedded.url"),
                    c.getString("pekko-persistence-jdbc.shared-databases.slick.db.url"));
        }

        @Test
        void seedNodesFromTheFileNeedTheCassandraProfile() throws Exception {
            String f =
                    file(
                            "seeds.conf",
                            "pekko.cluster.seed-nodes = [\"pekko://kubepekko@10.0.0.1:2552\"]");
            String message = error("--config", f);
            assertEquals(
                    "invalid configuration: pekko.cluster.seed-nodes ("
                            + f
                            + ": 1) on the embedded storage profile: "
                            + "a cluster of several servers needs kubepekko.storage.profile = cassandra (or --storage=cassandra)",
                    message);
            assertEquals(
                    List.of("pekko://kubepekko@10.0.0.1:2552"),
                    resolved("--config", f, "--storage", "cassandra").seedNodes(),
                    "the flag may give the profile");
            String both = file("both.conf", CLUSTERED);
            assertTrue(
                    error("--config", both, "--storage=embedded")
                            .contains("on the embedded storage profile"));
            assertEquals(
                    "invalid argument \"h:1\" for \"--cluster-seed-nodes\" flag: a cluster of several servers "
                            + "needs --storage=cassandra",
                    error(
                            "--config",
                            file("other.conf", "kubepekko.watch.max-events = 7"),
                            "--cluster-seed-nodes=h:1"));
            assertEquals(
                    List.of("pekko://kubepekko@h:1"),
                    resolved(
                                    "--config",
                                    file("cassandra.conf", "kubepekko.storage.profile = cassandra"),
                                    "--cluster-seed-nodes=h:1")
                            .seedNodes(),
                    "seed nodes by flag, the profile from the file");
        }

        static Stream<Arguments> badFiles() {
            return Stream.of(
                    Arguments.of(
                            named("unparsable", "kubepekko.watch { max-events = 7"),
                            "for \"--config\" flag: "),
                    Arguments.of(
                            named("a value of the wrong type", "pekko.cluster.seed-nodes = 3"),
                            "invalid configuration: "),
                    Arguments.of(
                            named("no such storage profile", "kubepekko.storage.profile = h2"),
                            "invalid configuration: kubepekko.storage.profile = \"h2\" ("),
                    Arguments.of(
                            named(
                                    "a seed node of another actor system",
                                    "kubepekko.storage.profile = cassandra\n"
                                            + "pekko.cluster.seed-nodes = [\"pekko://ClusterSystem@10.0.0.1:2552\"]"),
                            "invalid configuration: pekko.cluster.seed-nodes ("),
                    Arguments.of(
                            named(
                                    "an unresolved substitution",
                                    "pekko.remote.artery.canonical.hostname = ${NO_SUCH_VARIABLE_HERE}"),
                            "invalid configuration: "),
                    Arguments.of(
                            named(
                                    "a missing required include",
                                    "include required(file(\"/no/such/dir/node.conf\"))"),
                            "for \"--config\" flag: "));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("badFiles")
        void refusesABadFileInOneLineNamingIt(String hocon, String expected) throws Exception {
            String f = file("bad.conf", hocon);
            String message = error("--config", f);
            assertTrue(message.contains(expected), message);
            assertTrue(message.contains("bad.conf"), () -> "names the file: " + message);
            assertEquals(1, message.lines().count(), message);
        }

        @Test
        void refusesAMissingFileOrADirectory() {
            String missing = dir.resolve("none.conf").toString();
            assertEquals(
                    "invalid argument \"" + missing + "\" for \"--config\" flag: no such file",
                    error("--config", missing));
            assertEquals(
                    "invalid argument \"" + dir + "\" for \"--config\" flag: not a file",
                    error("--config=" + dir));
            assertEquals("flag needs an argument: --config", error("--config"));
        }

        @Test
        void includesAreFoundNextToTheFile() throws Exception {
            file(
                    "common.conf",
                    "kubepekko.watch.max-events = 7\nkubepekko.watch.watcher-buffer = 5");
            String node =
                    file(
                            "node.conf",
                            "include \"common.conf\"\nkubepekko.watch.watcher-buffer = 6");
            Config c = resolved("--config", node).config();
            assertEquals(7, c.getInt("kubepekko.watch.max-events"));
            assertEquals(
                    6,
                    c.getInt("kubepekko.watch.watcher-buffer"),
                    "the including file's later value wins");
        }

        @Test
        void systemPropertyConfigFileNamesTheFileToo() throws Exception {
            String f = file("watch.conf", "kubepekko.watch.max-events = 7");
            Properties props = new Properties();
            props.setProperty("config.file", f);
            assertEquals(
                    settings("--config", f), ApiServerFlags.parse(new String[0], props).settings());
            assertEquals(
                    "--config and -Dconfig.file both name a configuration file: give one",
                    assertThrows(
                                    ApiServerFlags.UsageException.class,
                                    () -> ApiServerFlags.parse(new String[] {"--config", f}, props))
                            .getMessage());
            props.setProperty("config.file", dir.resolve("none.conf").toString());
            assertEquals(
                    "invalid value \""
                            + dir.resolve("none.conf")
                            + "\" for -Dconfig.file: no such file",
                    assertThrows(
                                    ApiServerFlags.UsageException.class,
                                    () -> ApiServerFlags.parse(new String[0], props))
                            .getMessage());
            Properties resource = new Properties();
            resource.setProperty("config.resource", "application.conf");
            assertEquals(
                    "-Dconfig.resource is not supported: name the file with --config",
                    assertThrows(
                                    ApiServerFlags.UsageException.class,
                                    () -> ApiServerFlags.parse(new String[0], resource))
                            .getMessage());
        }

        @Test
        void helpDocumentsTheConfigFlag() {
            assertTrue(ApiServerFlags.USAGE.contains("--config string"));
            assertTrue(ApiServerFlags.USAGE.contains("-Dconfig.file"));
        }
    }

    static Stream<Arguments> goDurations() {
        return Stream.of(
                Arguments.of("0", Duration.ZERO),
                Arguments.of("0s", Duration.ZERO),
                Arguments.of("42ns", Duration.ofNanos(42)),
                Arguments.of("100us", Duration.ofNanos(100_000)),
                Arguments.of("100µs", Duration.ofNanos(100_000)),
                Arguments.of("250ms", Duration.ofMillis(250)),
                Arguments.of("10s", Duration.ofSeconds(10)),
                Arguments.of("1.5s", Duration.ofMillis(1500)),
                Arguments.of(".5s", Duration.ofMillis(500)),
                Arguments.of("1m30s", Duration.ofSeconds(90)),
                Arguments.of("2h45m", Duration.ofMinutes(165)),
                Arguments.of("1h0m0s", Duration.ofHours(1)),
                Arguments.of("1.5h", Duration.ofMinutes(90)),
                Arguments.of("1s500ms", Duration.ofMillis(1500)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goDurations")
    void parsesGoDuration(String text, Duration expected) {
        assertEquals(expected, Duration.ofNanos(GoDurations.parse(text)));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "10", "s", "1x", "1d", "1s2", "abc", "1 s", "s1"})
    void rejectsMalformedGoDuration(String text) {
        assertThrows(IllegalArgumentException.class, () -> GoDurations.parse(text));
    }
}
