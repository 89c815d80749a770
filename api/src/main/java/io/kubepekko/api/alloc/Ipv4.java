package io.kubepekko.api.alloc;

/** Dotted-quad IPv4 addresses as unsigned 32-bit values in a {@code long}. */
public final class Ipv4 {
    private Ipv4() {}

    /**
     * The address, or -1 when {@code text} is not four decimal octets. Octets with leading zeros
     * are refused: Kubernetes validation refuses them too, and a second spelling of one address
     * would make two keys for one value.
     */
    public static long parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 15) {
            return -1;
        }
        long value = 0;
        int octets = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '.') {
                int len = i - start;
                if (len < 1 || len > 3 || (len > 1 && text.charAt(start) == '0')) {
                    return -1;
                }
                int octet = 0;
                for (int j = start; j < i; j++) {
                    char c = text.charAt(j);
                    if (c < '0' || c > '9') {
                        return -1;
                    }
                    octet = octet * 10 + (c - '0');
                }
                if (octet > 255) {
                    return -1;
                }
                value = (value << 8) | octet;
                octets++;
                start = i + 1;
            }
        }
        return octets == 4 ? value : -1;
    }

    public static String format(long address) {
        return ((address >> 24) & 0xFF)
                + "."
                + ((address >> 16) & 0xFF)
                + "."
                + ((address >> 8) & 0xFF)
                + "."
                + (address & 0xFF);
    }
}
