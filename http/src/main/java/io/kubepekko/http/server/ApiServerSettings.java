package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.definition.RuntimeConfig;
import io.kubepekko.http.audit.AuditSettings;
import io.kubepekko.http.security.SecureServing;
import io.kubepekko.persistence.StorageSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * How an API server runs, read once from its flags.
 *
 * @param dataDir where the embedded database and {@code admin.kubeconfig} live
 * @param bindAddress the address the HTTPS listener binds
 * @param port the HTTPS port ({@code --secure-port}); 0 picks a free one
 * @param livezGracePeriod how long after start /livez treats unfinished start-up as passing
 * @param shutdownDelay how long the server keeps serving, with /readyz failing, after a shutdown
 *     starts
 * @param reads the list/watch flags
 * @param overrides configuration layered over the server's own, under the flags given: the {@code
 *     --config} file, and tests' tuning (see {@link #resolve()})
 * @param services where Service cluster IPs and node ports come from
 * @param storage which storage profile holds the journal
 * @param cluster how this server's actor system joins the Pekko Cluster
 * @param secure the listener's TLS and who may do what through it (the TLS, authentication and
 *     authorization flags)
 * @param audit what is audited and where the log goes ({@code --audit-*})
 * @param runtimeConfig which API versions and resources are served ({@code --runtime-config})
 * @param admission the admission plugins that run and their settings (the admission flags)
 */
public record ApiServerSettings(
        Path dataDir,
        String bindAddress,
        int port,
        Duration livezGracePeriod,
        Duration shutdownDelay,
        ReadFlags reads,
        Config overrides,
        ServiceRanges services,
        StorageFlags storage,
        ClusterFlags cluster,
        SecureServing secure,
        AuditSettings audit,
        RuntimeConfig runtimeConfig,
        AdmissionSettings admission) {

    /**
     * The actor system's name: Pekko refuses a member whose system name differs, so every node uses
     * this one.
     */
    public static final String SYSTEM_NAME = "kubepekko";

    static final String SEED_NODES = "pekko.cluster.seed-nodes";

    /** How a problem of the layered configuration (rather than of one flag) starts. */
    static final String INVALID = "invalid configuration: ";

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides,
            ServiceRanges services,
            StorageFlags storage,
            ClusterFlags cluster) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                SecureServing.generated(),
                AuditSettings.DISABLED,
                RuntimeConfig.NONE,
                AdmissionSettings.DEFAULT);
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides,
            ServiceRanges services,
            StorageFlags storage) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                ClusterFlags.DEFAULT);
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides,
            ServiceRanges services) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                StorageFlags.DEFAULT);
    }

    /**
     * The storage profile these settings select (the embedded one keeps its database in {@link
     * #dataDir}).
     */
    public StorageSettings storageSettings() {
        return resolve().storage();
    }

    /**
     * What the settings add up to: the actor system's configuration and the storage profile it
     * selects.
     *
     * @param config the resolved configuration
     * @param storage the storage profile
     * @param seedNodes the seed nodes' addresses ({@code pekko://kubepekko@host:port}); empty: this
     *     node forms a cluster of its own
     */
    public record Resolved(Config config, StorageSettings storage, List<String> seedNodes) {}

    /**
     * Layers the configuration, highest first: the flags given ({@link #cluster}, {@link
     * #storage}), the {@link #overrides} (the {@code --config} file, tests' tuning), the built-in
     * {@code kubepekko-server.conf} with the selected storage profile's wiring, then the modules'
     * {@code reference.conf}. A flag left at its default sets nothing, so a file's storage profile
     * or seed nodes hold unless a flag says otherwise. Java system properties ({@code -D}) beat
     * every layer, as Typesafe Config loads them.
     *
     * @throws IllegalArgumentException when the layers together make no valid server: a storage
     *     profile that is not one, or seed nodes on the embedded profile (the message names the
     *     flag or the setting and where it was set); {@link com.typesafe.config.ConfigException}
     *     when a file's value has the wrong type or a substitution is left unresolved
     */
    public Resolved resolve() {
        return ConfigLayering.resolve(this);
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                ServiceRanges.DEFAULT);
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                defaults().reads(),
                ConfigFactory.empty());
    }

    /**
     * What an empty command line gives: every flag at its default, as {@link ApiServerFlags}
     * declares it (the one place defaults are written: {@code --bind-address 0.0.0.0}, {@code
     * --secure-port 6443}), and no configuration file. A test that starts a server says where it
     * listens ({@link #withBindAddress}, {@link #withPort}).
     */
    public static ApiServerSettings defaults() {
        try {
            return ApiServerFlags.parse(new String[0], new Properties()).settings();
        } catch (ApiServerFlags.UsageException e) {
            throw new IllegalStateException(
                    "the flags' defaults are refused: " + e.getMessage(), e);
        }
    }

    public ApiServerSettings withDataDir(Path dir) {
        return new ApiServerSettings(
                dir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    public ApiServerSettings withBindAddress(String address) {
        return new ApiServerSettings(
                dataDir,
                address,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    public ApiServerSettings withPort(int p) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                p,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    public ApiServerSettings withReads(ReadFlags r) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                r,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    /** Layers {@code hocon} over the configuration (later calls win). */
    public ApiServerSettings withConfig(String hocon) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                ConfigFactory.parseString(hocon).withFallback(overrides),
                services,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    public ApiServerSettings withServices(ServiceRanges s) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                s,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    public ApiServerSettings withStorage(StorageFlags s) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                s,
                cluster,
                secure,
                audit,
                runtimeConfig,
                admission);
    }

    /** Serves HTTPS and checks access as {@code s} says. */
    public ApiServerSettings withSecure(SecureServing s) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                s,
                audit,
                runtimeConfig,
                admission);
    }

    /** Audits requests as {@code a} says ({@link AuditSettings#DISABLED}: nothing). */
    public ApiServerSettings withAudit(AuditSettings a) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                a,
                runtimeConfig,
                admission);
    }

    /** Serves the API versions and resources {@code r} leaves on ({@code --runtime-config}). */
    public ApiServerSettings withRuntimeConfig(RuntimeConfig r) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit,
                r,
                admission);
    }

    /** Admits writes with the plugins and plugin settings of {@code a}. */
    public ApiServerSettings withAdmission(AdmissionSettings a) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit,
                runtimeConfig,
                a);
    }

    public ApiServerSettings withCluster(ClusterFlags c) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                c,
                secure,
                audit,
                runtimeConfig,
                admission);
    }
}
