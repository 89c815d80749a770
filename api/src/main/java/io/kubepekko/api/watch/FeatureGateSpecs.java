package io.kubepekko.api.watch;

import io.kubepekko.api.watch.FeatureGates.Gate;
import io.kubepekko.api.watch.FeatureGates.Stage;
import java.util.List;

/**
 * The gates of kube-apiserver 1.35's generic API server ({@code k8s.io/apiserver/pkg/features}),
 * each at the stage, default and lock its versioned spec gives it at 1.35, and the gates SPEC names
 * that kube has removed since. Data only: {@link FeatureGates} applies kube's rules to it.
 *
 * <p>Gates of kube-apiserver's other registries (kubelet, scheduler and controller gates of {@code
 * pkg/features}) are not listed: this server has none of those features.
 */
final class FeatureGateSpecs {
    private FeatureGateSpecs() {}

    /** A gate kube has removed: naming it is refused as unrecognized, its feature always on. */
    record Removed(String name, String gaSince, String removedIn) {}

    static final List<Gate> KNOWN =
            List.of(
                    beta("APIResponseCompression", true),
                    beta("APIServerIdentity", true),
                    ga("APIServerTracing"),
                    alpha("APIServingWithRoutine"),
                    new Gate("AggregatedDiscoveryRemoveBetaType", Stage.DEPRECATED, true, true),
                    beta("AllowParsingUserUIDFromCertAuth", true),
                    alpha("AllowUnsafeMalformedObjectDeletion"),
                    ga("AnonymousAuthConfigurableEndpoints"),
                    ga("AuthorizeWithSelectors"),
                    ga("BtreeWatchCache"),
                    alpha("CBORServingAndStorage"),
                    beta("ConcurrentWatchObjectDecode", false),
                    ga("ConsistentListFromCache"),
                    alpha("ConstrainedImpersonation"),
                    beta("CoordinatedLeaderElection", false),
                    beta("DeclarativeValidation", true),
                    beta("DeclarativeValidationTakeover", false),
                    beta("DetectCacheInconsistency", true),
                    new Gate("KMSv1", Stage.DEPRECATED, false, false),
                    beta("ListFromCacheSnapshot", true),
                    beta("MutatingAdmissionPolicy", false),
                    beta("OpenAPIEnums", true),
                    beta("RemoteRequestHeaderUID", true),
                    ga("ResilientWatchCacheInitialization"),
                    ga("RetryGenerateName"),
                    new Gate("SeparateCacheWatchRPC", Stage.DEPRECATED, false, false),
                    beta("SizeBasedListCostEstimate", true),
                    alpha("StorageVersionAPI"),
                    beta("StorageVersionHash", true),
                    ga("StreamingCollectionEncodingToJSON"),
                    ga("StreamingCollectionEncodingToProtobuf"),
                    ga("StructuredAuthenticationConfiguration"),
                    beta("StructuredAuthenticationConfigurationEgressSelector", true),
                    beta("StructuredAuthenticationConfigurationJWKSMetrics", true),
                    ga("StructuredAuthorizationConfiguration"),
                    beta("TokenRequestServiceAccountUIDValidation", true),
                    beta("UnauthenticatedHTTP2DOSMitigation", true),
                    alpha("UnknownVersionInteroperabilityProxy"),
                    beta("WatchCacheInitializationPostStartHook", false),
                    new Gate(
                            "WatchFromStorageWithoutResourceVersion",
                            Stage.DEPRECATED,
                            false,
                            true),
                    beta(FeatureGates.WATCH_LIST, true));

    /**
     * SPEC's gates: beta for years, then GA locked on, then removed after kube's three releases of
     * GA. Their features are what this server always does (paged lists, remaining item counts,
     * progress bookmarks, no {@code selfLink}).
     */
    static final List<Removed> REMOVED =
            List.of(
                    new Removed("APIListChunking", "1.29", "1.33"),
                    new Removed("EfficientWatchResumption", "1.24", "1.33"),
                    new Removed("RemainingItemCount", "1.29", "1.33"),
                    new Removed("RemoveSelfLink", "1.24", "1.30"));

    private static Gate alpha(String name) {
        return new Gate(name, Stage.ALPHA, false, false);
    }

    private static Gate beta(String name, boolean on) {
        return new Gate(name, Stage.BETA, on, false);
    }

    private static Gate ga(String name) {
        return new Gate(name, Stage.GA, true, true);
    }
}
