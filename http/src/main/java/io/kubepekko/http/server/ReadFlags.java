package io.kubepekko.http.server;

import io.kubepekko.api.watch.FeatureGates;
import java.time.Duration;

/**
 * The list/watch flags.
 *
 * @param watchCacheWindow how long the watch cache keeps events in memory ({@code
 *     --watch-cache-window})
 * @param continueTokenTtl how long a continue token stays valid ({@code --continue-token-ttl})
 * @param watchHistoryRetention how far back a watch may resume, from the journal when older than
 *     the window ({@code --watch-history-retention})
 * @param featureGates {@code --feature-gates}
 */
public record ReadFlags(
        Duration watchCacheWindow,
        Duration continueTokenTtl,
        Duration watchHistoryRetention,
        FeatureGates featureGates) {}
