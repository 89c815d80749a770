package io.kubepekko.actors;

import io.kubepekko.api.store.ObjectWrites;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Time and randomness for writes, injected so that tests are deterministic.
 *
 * @param clock the source of creation and deletion timestamps
 * @param uids generator of {@code metadata.uid}
 * @param nameSuffixes generator of {@code generateName} suffixes
 * @param random where cluster-wide values (Service cluster IPs, node ports) are picked at random,
 *     and how far apart each collection's snapshots fall; drawn from by many actors at once, so it
 *     must be thread-safe (as {@link java.util.Random} is)
 */
public record Environment(
        Clock clock, Supplier<String> uids, Supplier<String> nameSuffixes, RandomGenerator random) {

    public Environment(Clock clock, Supplier<String> uids, Supplier<String> nameSuffixes) {
        this(clock, uids, nameSuffixes, new Random());
    }

    /** Kubernetes' alphabet for generated names: no vowels, no confusable characters. */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    public static Environment system() {
        SecureRandom random = new SecureRandom();
        return new Environment(
                Clock.systemUTC(),
                () -> UUID.randomUUID().toString(),
                () -> {
                    StringBuilder b = new StringBuilder(5);
                    for (int i = 0; i < 5; i++) {
                        b.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                    }
                    return b.toString();
                });
    }

    public ObjectWrites.Env env() {
        return new ObjectWrites.Env(clock.instant(), uids, nameSuffixes);
    }
}
