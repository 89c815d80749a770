package io.kubepekko.api.auth;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's x509 request authenticator: a client certificate chain that leads to one of the client
 * CAs, every certificate of it valid now and allowed for client authentication, names its user by
 * the leaf's subject: the common name is the user name, the organizations are the groups.
 *
 * <p>As kube (Go's {@code x509.Verify} with {@code ExtKeyUsageClientAuth}): a certificate without
 * an extended key usage extension permits every usage; one with it must list client auth or any
 * usage, intermediates included; key usage bits are not checked for the leaf. A chain that verifies
 * but whose leaf has no common name authenticates nobody without being an error (kube's {@code
 * CommonNameUserConversion} answers "not ok"), so it counts as not presented. The server's TLS
 * layer only requests a certificate and accepts any ({@code tls.RequestClientCert}): this is where
 * a certificate is verified.
 */
public final class X509Authenticator implements Authentication.Authenticator {

    /** The extended key usage for TLS client authentication. */
    static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

    /** The extended key usage that permits any usage. */
    static final String ANY_USAGE = "2.5.29.37.0";

    /** How many verified chains are remembered; more clears the memory (a bound, not an LRU). */
    static final int REMEMBERED_CHAINS = 4096;

    private final Set<TrustAnchor> anchors;
    private final Clock clock;

    /**
     * Chains verified before, with the user they name and the time window in which every
     * certificate of their path is valid: a connection presents the same chain on every request,
     * and building a PKIX path costs tens of microseconds (Go's verification is several times
     * cheaper). Only chains that authenticated are kept, so a client cannot fill it with garbage;
     * the anchors never change for this authenticator, so an entry stays right until its window
     * ends.
     */
    private final Map<List<X509Certificate>, Verified> verified = new ConcurrentHashMap<>();

    private record Verified(UserInfo user, Instant notBefore, Instant notAfter) {
        boolean validAt(Instant now) {
            return !now.isBefore(notBefore) && !now.isAfter(notAfter);
        }
    }

    /**
     * @param clientCas the CAs whose (chains of) certificates authenticate; none: this
     *     authenticator never authenticates, as kube's with an empty CA bundle
     * @param clock the time validity is checked at
     */
    public X509Authenticator(List<X509Certificate> clientCas, Clock clock) {
        Set<TrustAnchor> set = new LinkedHashSet<>();
        for (X509Certificate ca : clientCas) {
            set.add(new TrustAnchor(ca, null));
        }
        this.anchors = Set.copyOf(set);
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Credentials credentials) {
        List<X509Certificate> chain = credentials.clientChain();
        if (chain.isEmpty() || anchors.isEmpty()) {
            return new Authentication.NotPresented();
        }
        X509Certificate leaf = chain.get(0);
        Instant now = clock.instant();
        Verified known = verified.get(chain);
        if (known != null && known.validAt(now)) {
            return new Authentication.Authenticated(known.user());
        }
        List<X509Certificate> path;
        try {
            path = verifiedPath(chain, now);
        } catch (GeneralSecurityException e) {
            return new Authentication.Rejected(
                    "verifying certificate " + identify(leaf) + " failed: " + why(chain, now, e));
        }
        for (X509Certificate c : path) {
            if (!allowsClientAuth(c)) {
                return new Authentication.Rejected(
                        "verifying certificate "
                                + identify(leaf)
                                + " failed: x509: certificate specifies an incompatible key usage");
            }
        }
        String name = commonName(leaf);
        if (name.isEmpty()) {
            return new Authentication.NotPresented();
        }
        UserInfo user = UserInfo.of(name, organizations(leaf));
        remember(List.copyOf(chain), path, user);
        return new Authentication.Authenticated(user);
    }

    private void remember(List<X509Certificate> chain, List<X509Certificate> path, UserInfo user) {
        Instant notBefore = Instant.MIN;
        Instant notAfter = Instant.MAX;
        for (X509Certificate c : path) {
            Instant from = c.getNotBefore().toInstant();
            Instant to = c.getNotAfter().toInstant();
            notBefore = from.isAfter(notBefore) ? from : notBefore;
            notAfter = to.isBefore(notAfter) ? to : notAfter;
        }
        if (verified.size() >= REMEMBERED_CHAINS) {
            verified.clear();
        }
        verified.put(chain, new Verified(user, notBefore, notAfter));
    }

    /** The certificates from the leaf up to (and including) the trust anchor that signed them. */
    private List<X509Certificate> verifiedPath(List<X509Certificate> chain, Instant now)
            throws GeneralSecurityException {
        X509CertSelector target = new X509CertSelector();
        target.setCertificate(chain.get(0));
        PKIXBuilderParameters params;
        try {
            params = new PKIXBuilderParameters(anchors, target);
        } catch (InvalidAlgorithmParameterException e) {
            throw new IllegalStateException(e);
        }
        params.setRevocationEnabled(false);
        params.setDate(Date.from(now));
        params.addCertStore(
                CertStore.getInstance("Collection", new CollectionCertStoreParameters(chain)));
        PKIXCertPathBuilderResult result =
                (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX").build(params);
        List<X509Certificate> path = new ArrayList<>();
        for (Certificate c : result.getCertPath().getCertificates()) {
            path.add((X509Certificate) c);
        }
        X509Certificate anchor = result.getTrustAnchor().getTrustedCert();
        // Go checks the root's validity too; Java's PKIX trusts an anchor whatever its dates.
        anchor.checkValidity(Date.from(now));
        path.add(anchor);
        return path;
    }

    /** kube's words where the cause is plain: expiry first, as Go reports it. */
    private static String why(List<X509Certificate> chain, Instant now, Exception e) {
        for (X509Certificate c : chain) {
            try {
                c.checkValidity(Date.from(now));
            } catch (CertificateExpiredException | CertificateNotYetValidException expired) {
                return "x509: certificate has expired or is not yet valid";
            }
        }
        return "x509: certificate signed by unknown authority (" + e.getMessage() + ")";
    }

    private static boolean allowsClientAuth(X509Certificate c) {
        List<String> usages;
        try {
            usages = c.getExtendedKeyUsage();
        } catch (CertificateParsingException e) {
            return false;
        }
        return usages == null || usages.contains(CLIENT_AUTH) || usages.contains(ANY_USAGE);
    }

    private static String identify(X509Certificate c) {
        return "SN=" + c.getSerialNumber();
    }

    private static String commonName(X509Certificate c) {
        List<String> cn = DistinguishedNames.values(c.getSubjectX500Principal(), "CN");
        return cn.isEmpty() ? "" : cn.get(cn.size() - 1);
    }

    private static List<String> organizations(X509Certificate c) {
        return DistinguishedNames.values(c.getSubjectX500Principal(), "O");
    }
}
