package io.kubepekko.api.alloc;

import java.util.List;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * A named range of values that must be unique across the cluster (service cluster IPs, node ports),
 * with Kubernetes' rules for it. Pure: which values are taken is the caller's knowledge.
 *
 * <p>A value is identified by its one canonical spelling; {@link Claims#key} joins it with the
 * pool's name into the key an allocator stores.
 */
public interface ValuePool {

    /** The pool's name, unique among the server's pools. */
    String name();

    /**
     * The canonical spelling of {@code value}, or {@code null} when it is no value of this kind at
     * all.
     */
    String canonical(String value);

    /**
     * Why {@code value} (canonical) can never be held from this pool, or {@code null}. A dry run
     * checks what Kubernetes' dry-run allocators check, which is less for some pools.
     */
    Refusal outOfRange(String value, boolean dryRun);

    /**
     * Values no object may take though nobody stored holds them (the {@code kubernetes} Service's
     * address).
     */
    boolean reserved(String value);

    /**
     * A free value chosen as Kubernetes chooses, or {@code null} when every value is taken or
     * reserved.
     */
    String pick(Predicate<String> taken, RandomGenerator random);

    /** The refusal of a value that is already held. */
    Refusal taken();

    /** The refusal when nothing is free. */
    Refusal full();

    /**
     * What a dry run shows for a value it was not asked for by number: Kubernetes' dry-run
     * allocators do not look for a free one but answer a placeholder.
     *
     * @param chosen the values of this pool the same dry-run write already got, in order
     */
    String dryRunValue(List<String> chosen);

    /**
     * Whether a dry run refuses a requested value that is already held (Kubernetes' node ports:
     * yes; cluster IPs: no).
     */
    boolean dryRunChecksTaken();
}
