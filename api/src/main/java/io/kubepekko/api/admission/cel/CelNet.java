package io.kubepekko.api.admission.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * kube's CEL IP and CIDR libraries ({@code k8s.io/apiserver/pkg/cel/library/ip.go}, {@code
 * cidr.go}, in the base environment since 1.30): {@code ip(s)}, {@code isIP(s)}, {@code
 * ip.isCanonical(s)}, an address's {@code family()}, {@code isUnspecified()}, {@code isLoopback()},
 * {@code isLinkLocalMulticast()}, {@code isLinkLocalUnicast()}, {@code isGlobalUnicast()}; {@code
 * cidr(s)}, {@code isCIDR(s)}, a network's {@code containsIP(ip or string)}, {@code
 * containsCIDR(cidr or string)}, {@code ip()}, {@code masked()}, {@code prefixLength()}; {@code
 * string(ip)} and {@code string(cidr)}. Text is read as Go's {@code netip} reads it ({@link
 * IpAddr}), zones and IPv4-mapped IPv6 addresses refused, with kube's messages.
 */
final class CelNet {

    static final OpaqueType IP = OpaqueType.create("net.IP");
    static final OpaqueType CIDR = OpaqueType.create("net.CIDR");

    /** kube's {@code net.CIDR}: an address and a prefix length, host bits kept as written. */
    record Cidr(IpAddr addr, int prefix) {
        boolean contains(IpAddr ip) {
            return ip.width() == addr.width() && ip.masked(prefix).equals(addr.masked(prefix));
        }

        @Override
        public String toString() {
            return addr + "/" + prefix;
        }
    }

    private CelNet() {}

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration(
                        "ip",
                        CelOverloadDecl.newGlobalOverload("string_to_ip", IP, SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload("cidr_ip", IP, CIDR)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isIP",
                        CelOverloadDecl.newGlobalOverload(
                                "is_ip", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "ip.isCanonical",
                        CelOverloadDecl.newGlobalOverload(
                                "ip_is_canonical", SimpleType.BOOL, SimpleType.STRING)),
                member("family", "ip_family", SimpleType.INT),
                member("isUnspecified", "ip_is_unspecified", SimpleType.BOOL),
                member("isLoopback", "ip_is_loopback", SimpleType.BOOL),
                member("isLinkLocalMulticast", "ip_is_link_local_multicast", SimpleType.BOOL),
                member("isLinkLocalUnicast", "ip_is_link_local_unicast", SimpleType.BOOL),
                member("isGlobalUnicast", "ip_is_global_unicast", SimpleType.BOOL),
                CelFunctionDecl.newFunctionDeclaration(
                        "string",
                        CelOverloadDecl.newGlobalOverload("ip_to_string", SimpleType.STRING, IP),
                        CelOverloadDecl.newGlobalOverload(
                                "cidr_to_string", SimpleType.STRING, CIDR)),
                CelFunctionDecl.newFunctionDeclaration(
                        "cidr",
                        CelOverloadDecl.newGlobalOverload(
                                "string_to_cidr", CIDR, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "isCIDR",
                        CelOverloadDecl.newGlobalOverload(
                                "is_cidr", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration(
                        "containsIP",
                        CelOverloadDecl.newMemberOverload(
                                "cidr_contains_ip_string",
                                SimpleType.BOOL,
                                CIDR,
                                SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload(
                                "cidr_contains_ip_ip", SimpleType.BOOL, CIDR, IP)),
                CelFunctionDecl.newFunctionDeclaration(
                        "containsCIDR",
                        CelOverloadDecl.newMemberOverload(
                                "cidr_contains_cidr_string",
                                SimpleType.BOOL,
                                CIDR,
                                SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload(
                                "cidr_contains_cidr", SimpleType.BOOL, CIDR, CIDR)),
                CelFunctionDecl.newFunctionDeclaration(
                        "prefixLength",
                        CelOverloadDecl.newMemberOverload(
                                "cidr_prefix_length", SimpleType.INT, CIDR)),
                CelFunctionDecl.newFunctionDeclaration(
                        "masked", CelOverloadDecl.newMemberOverload("cidr_masked", CIDR, CIDR)));
    }

    private static CelFunctionDecl member(String name, String overload, CelType result) {
        return CelFunctionDecl.newFunctionDeclaration(
                name, CelOverloadDecl.newMemberOverload(overload, result, IP));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_ip", String.class, CelNet::ip),
                CelFunctionBinding.from("is_ip", String.class, CelNet::isIp),
                CelFunctionBinding.from(
                        "ip_is_canonical", String.class, s -> ip(s).toString().equals(s)),
                CelFunctionBinding.from("ip_family", IpAddr.class, ip -> ip.is4() ? 4L : 6L),
                CelFunctionBinding.from("ip_is_unspecified", IpAddr.class, IpAddr::isUnspecified),
                CelFunctionBinding.from("ip_is_loopback", IpAddr.class, IpAddr::isLoopback),
                CelFunctionBinding.from(
                        "ip_is_link_local_multicast", IpAddr.class, IpAddr::isLinkLocalMulticast),
                CelFunctionBinding.from(
                        "ip_is_link_local_unicast", IpAddr.class, IpAddr::isLinkLocalUnicast),
                CelFunctionBinding.from(
                        "ip_is_global_unicast", IpAddr.class, IpAddr::isGlobalUnicast),
                CelFunctionBinding.from("ip_to_string", IpAddr.class, IpAddr::toString),
                CelFunctionBinding.from("cidr_to_string", Cidr.class, Cidr::toString),
                CelFunctionBinding.from("string_to_cidr", String.class, CelNet::cidr),
                CelFunctionBinding.from("is_cidr", String.class, CelNet::isCidr),
                CelFunctionBinding.from("cidr_ip", Cidr.class, Cidr::addr),
                CelFunctionBinding.from(
                        "cidr_contains_ip_string",
                        Cidr.class,
                        String.class,
                        (c, s) -> c.contains(ip(s))),
                CelFunctionBinding.from(
                        "cidr_contains_ip_ip", Cidr.class, IpAddr.class, Cidr::contains),
                CelFunctionBinding.from(
                        "cidr_contains_cidr_string",
                        Cidr.class,
                        String.class,
                        (c, s) -> containsCidr(c, cidr(s))),
                CelFunctionBinding.from(
                        "cidr_contains_cidr", Cidr.class, Cidr.class, CelNet::containsCidr),
                CelFunctionBinding.from("cidr_prefix_length", Cidr.class, c -> (long) c.prefix()),
                CelFunctionBinding.from(
                        "cidr_masked",
                        Cidr.class,
                        c -> new Cidr(c.addr().masked(c.prefix()), c.prefix())));
    }

    /** kube's {@code parseIPAddr}: Go's parse, then no zone and no IPv4-mapped IPv6 address. */
    static IpAddr parseIp(String s) throws IpAddr.ParseException {
        IpAddr addr;
        try {
            addr = IpAddr.parse(s);
        } catch (IpAddr.ParseException e) {
            throw new IpAddr.ParseException(
                    "IP Address "
                            + GoQuote.quote(s)
                            + " parse error during conversion from string: "
                            + e.getMessage());
        }
        if (!addr.zone().isEmpty()) {
            throw new IpAddr.ParseException(
                    "IP address " + GoQuote.quote(s) + " with zone value is not allowed");
        }
        if (addr.is4In6()) {
            throw new IpAddr.ParseException(
                    "IPv4-mapped IPv6 address " + GoQuote.quote(s) + " is not allowed");
        }
        return addr;
    }

    private static IpAddr ip(String s) throws CelEvaluationException {
        try {
            return parseIp(s);
        } catch (IpAddr.ParseException e) {
            throw new CelEvaluationException(e.getMessage());
        }
    }

    private static boolean isIp(String s) {
        try {
            parseIp(s);
            return true;
        } catch (IpAddr.ParseException e) {
            return false;
        }
    }

    /** Go's {@code netip.ParsePrefix}, then kube's refusal of IPv4-mapped IPv6 addresses. */
    static Cidr parseCidr(String s) throws IpAddr.ParseException {
        int slash = s.lastIndexOf('/');
        if (slash < 0) {
            throw prefixError(s, "no '/'");
        }
        IpAddr addr;
        try {
            addr = IpAddr.parse(s.substring(0, slash));
        } catch (IpAddr.ParseException e) {
            throw prefixError(s, e.getMessage());
        }
        if (!addr.zone().isEmpty()) {
            throw prefixError(s, "IPv6 zones cannot be present in a prefix");
        }
        String bits = s.substring(slash + 1);
        int prefix;
        // Go's strconv.Atoi would take a sign or leading zeros; ParsePrefix refuses them.
        if (bits.isEmpty()
                || bits.length() > 1 && (bits.charAt(0) < '1' || bits.charAt(0) > '9')
                || !bits.chars().allMatch(c -> c >= '0' && c <= '9')
                || bits.length() > 4) {
            throw prefixError(s, "bad bits after slash: " + GoQuote.quote(bits));
        }
        prefix = Integer.parseInt(bits);
        if (prefix > addr.width()) {
            throw prefixError(s, "prefix length out of range");
        }
        if (addr.is4In6()) {
            throw new IpAddr.ParseException(
                    "IPv4-mapped IPv6 address " + GoQuote.quote(s) + " is not allowed");
        }
        return new Cidr(addr, prefix);
    }

    private static IpAddr.ParseException prefixError(String s, String msg) {
        return new IpAddr.ParseException(
                "network address parse error during conversion from string: netip.ParsePrefix("
                        + GoQuote.quote(s)
                        + "): "
                        + msg);
    }

    private static Cidr cidr(String s) throws CelEvaluationException {
        try {
            return parseCidr(s);
        } catch (IpAddr.ParseException e) {
            // kube wraps its own parse error once more.
            throw new CelEvaluationException(
                    "network address parse error during conversion from string: " + e.getMessage());
        }
    }

    private static boolean isCidr(String s) {
        try {
            parseCidr(s);
            return true;
        } catch (IpAddr.ParseException e) {
            return false;
        }
    }

    /**
     * kube's containsCIDR, as its code does it: the outer network's masked address must equal the
     * inner one's address as written (Go's {@code PrefixFrom} does not mask it), and the inner
     * prefix be no shorter. So {@code cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')} is
     * false, whatever kube's doc comment says of that example.
     */
    private static boolean containsCidr(Cidr outer, Cidr inner) {
        return outer.addr().masked(outer.prefix()).equals(inner.addr())
                && outer.prefix() <= inner.prefix();
    }
}
