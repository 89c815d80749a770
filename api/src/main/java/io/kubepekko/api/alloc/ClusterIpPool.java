package io.kubepekko.api.alloc;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Service cluster IPs from one IPv4 range, as Kubernetes 1.35 allocates them (the IPAddress-backed
 * allocator behind a single ServiceCIDR): never the network or broadcast address, never the first
 * address (kube-apiserver gives it to the {@code kubernetes} Service), a dynamic pick random in the
 * upper part of the range ({@link OffsetScan}), and Kubernetes' error wording.
 */
public final class ClusterIpPool implements ValuePool {

    private final String name;
    private final Ipv4Cidr cidr;

    public ClusterIpPool(String name, Ipv4Cidr cidr) {
        this.name = name;
        this.cidr = cidr;
    }

    public Ipv4Cidr cidr() {
        return cidr;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String canonical(String value) {
        long address = Ipv4.parse(value);
        return address < 0 ? null : Ipv4.format(address);
    }

    /**
     * Outside the range, a real allocation finds no allocator for the address ({@code the provided
     * network does not match the current range}); the network and broadcast addresses, and in a dry
     * run anything outside the usable addresses, get the range allocator's own error.
     */
    @Override
    public Refusal outOfRange(String value, boolean dryRun) {
        long address = Ipv4.parse(value);
        if (!dryRun && (address < 0 || !cidr.contains(address))) {
            return new Refusal(
                    Refusal.Reason.OUT_OF_RANGE,
                    "the provided network does not match the current range");
        }
        if (address < cidr.firstUsable() || address > cidr.lastUsable()) {
            return new Refusal(
                    Refusal.Reason.OUT_OF_RANGE,
                    "the provided IP ("
                            + value
                            + ") is not in the valid range. The range of valid IPs is "
                            + cidr);
        }
        return null;
    }

    /**
     * The range's first address: kube-apiserver's own {@code default/kubernetes} Service holds it.
     */
    @Override
    public boolean reserved(String value) {
        return cidr.usable() > 0 && Ipv4.parse(value) == cidr.firstUsable();
    }

    @Override
    public String pick(Predicate<String> taken, RandomGenerator random) {
        long first = cidr.firstUsable();
        OptionalLong ordinal =
                OffsetScan.pick(
                        cidr.usable(),
                        OffsetScan.clusterIpOffset(cidr.size()),
                        o -> {
                            String v = Ipv4.format(first + o);
                            return reserved(v) || taken.test(v);
                        },
                        random);
        return ordinal.isPresent() ? Ipv4.format(first + ordinal.getAsLong()) : null;
    }

    @Override
    public Refusal taken() {
        return new Refusal(Refusal.Reason.TAKEN, "provided IP is already allocated");
    }

    @Override
    public Refusal full() {
        return new Refusal(Refusal.Reason.FULL, "range is full");
    }

    /**
     * Kubernetes' dry-run IP allocator answers the range's network address without looking for a
     * free one.
     */
    @Override
    public String dryRunValue(List<String> chosen) {
        return Ipv4.format(cidr.network());
    }

    @Override
    public boolean dryRunChecksTaken() {
        return false;
    }
}
