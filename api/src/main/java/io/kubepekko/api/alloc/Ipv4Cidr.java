package io.kubepekko.api.alloc;

/**
 * An IPv4 network in CIDR notation, as {@code --service-cluster-ip-range} names it. Addresses are
 * held as unsigned 32-bit values in a {@code long}.
 *
 * @param network the network address (host bits zero)
 * @param prefix the mask length, 0..32
 */
public record Ipv4Cidr(long network, int prefix) {

    public Ipv4Cidr {
        if (prefix < 0 || prefix > 32) {
            throw new IllegalArgumentException("prefix out of range: " + prefix);
        }
        network = network & mask(prefix);
    }

    /**
     * Parses {@code a.b.c.d/n}. Host bits are cleared, as kube-apiserver's CIDR parser does ({@code
     * 10.0.0.5/24} is {@code 10.0.0.0/24}).
     *
     * @throws IllegalArgumentException when the text is no IPv4 CIDR
     */
    public static Ipv4Cidr parse(String text) {
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        long address = Ipv4.parse(text.substring(0, slash));
        String bits = text.substring(slash + 1);
        if (address < 0 || !bits.matches("\\d{1,2}") || Integer.parseInt(bits) > 32) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        return new Ipv4Cidr(address, Integer.parseInt(bits));
    }

    /** How many addresses the network spans, network and broadcast included. */
    public long size() {
        return 1L << (32 - prefix);
    }

    public long broadcast() {
        return network + size() - 1;
    }

    public boolean contains(long address) {
        return address >= network && address <= broadcast();
    }

    /** The first address a Service may get: the one after the network address. */
    public long firstUsable() {
        return network + 1;
    }

    /** The last address a Service may get: the one before the broadcast address. */
    public long lastUsable() {
        return broadcast() - 1;
    }

    /**
     * How many addresses lie between {@link #firstUsable()} and {@link #lastUsable()}, both
     * included.
     */
    public long usable() {
        return Math.max(0, lastUsable() - firstUsable() + 1);
    }

    private static long mask(int prefix) {
        return prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
    }

    @Override
    public String toString() {
        return Ipv4.format(network) + "/" + prefix;
    }
}
