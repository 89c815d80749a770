package io.kubepekko.http.security;

import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.api.auth.UserInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's certificates and keys, k3s-style: created under {@code <data-dir>/pki} on first
 * start and reused after. A server CA signs the serving certificate; a client CA signs the admin
 * client certificate; an RSA key pair signs service-account tokens. A certificate near its end (see
 * {@link CertificateLifetimes}), or a serving certificate that lacks one of today's names (a new
 * {@code --advertise-address}), is issued anew from the same CA; the CAs are never replaced while
 * their files exist, so clients' kubeconfigs keep working. An operator's {@code --tls-cert-file} /
 * {@code --client-ca-file} take the place of the generated serving certificate / client CA.
 */
public final class Pki {
    private static final Logger log = LoggerFactory.getLogger(Pki.class);

    /** The directory under the data directory. */
    public static final String DIRECTORY = "pki";

    public static final String SERVER_CA = "server-ca";
    public static final String CLIENT_CA = "client-ca";
    public static final String SERVING = "serving-kube-apiserver";
    public static final String ADMIN = "client-admin";

    /** The service-account signing key ({@code --service-account-signing-key-file}). */
    public static final String SERVICE_ACCOUNT_KEY = "sa.key";

    /** Its public key ({@code --service-account-key-file}). */
    public static final String SERVICE_ACCOUNT_PUBLIC_KEY = "sa.pub";

    /** The admin's user name, kubeadm's. */
    public static final String ADMIN_USER = "kubernetes-admin";

    /**
     * The files the servers of one cluster share, under {@link #DIRECTORY}: both CAs and the
     * service-account key pair. Each server issues its own serving and admin certificates from
     * them, so any server's admin kubeconfig works against every server, and a token one signs
     * every other accepts.
     */
    public static final List<String> SHARED =
            List.of(
                    SERVER_CA + ".crt",
                    SERVER_CA + ".key",
                    CLIENT_CA + ".crt",
                    CLIENT_CA + ".key",
                    SERVICE_ACCOUNT_KEY,
                    SERVICE_ACCOUNT_PUBLIC_KEY);

    /**
     * Copies the {@link #SHARED} files of {@code fromDataDir} into {@code toDataDir}, owner-only,
     * before a server starts there: it then joins the first server's trust.
     */
    public static void share(Path fromDataDir, Path toDataDir) throws IOException {
        Path to = toDataDir.resolve(DIRECTORY);
        PrivateFiles.directory(to);
        for (String name : SHARED) {
            PrivateFiles.write(
                    to.resolve(name),
                    Files.readString(fromDataDir.resolve(DIRECTORY).resolve(name)));
        }
    }

    /**
     * What the server serves and trusts.
     *
     * @param servingChain the serving certificate, then its intermediates
     * @param servingKey its private key
     * @param serverCa the certificate clients verify the serving one with (the kubeconfig's CA)
     * @param clientCas the CAs client certificates are verified against
     * @param admin the admin's client certificate and key, when the client CA is the generated one
     * @param serviceAccountKey the service-account signing key's file (PEM private key)
     * @param serviceAccountPublicKey its public key's file (PEM)
     */
    public record Material(
            List<X509Certificate> servingChain,
            PrivateKey servingKey,
            X509Certificate serverCa,
            List<X509Certificate> clientCas,
            Optional<CertificateIssuer.Issued> admin,
            Path serviceAccountKey,
            Path serviceAccountPublicKey) {
        public Material {
            servingChain = List.copyOf(servingChain);
            clientCas = List.copyOf(clientCas);
        }
    }

    private Pki() {}

    /**
     * Creates what is missing or due under {@code dataDir}, and reads the rest.
     *
     * @param names the names the serving certificate must carry
     */
    public static Material prepare(
            Path dataDir, SecureServing flags, ServingNames names, Clock clock) throws IOException {
        Path dir = dataDir.resolve(DIRECTORY);
        PrivateFiles.directory(dir);
        Instant now = clock.instant();

        List<X509Certificate> servingChain;
        PrivateKey servingKey;
        X509Certificate serverCa;
        if (flags.certFile().isPresent()) {
            servingChain = Pem.certificates(flags.certFile().get());
            servingKey = Pem.privateKey(flags.keyFile().orElseThrow());
            serverCa = servingChain.get(servingChain.size() - 1);
        } else {
            CertificateIssuer.Issued ca = ca(dir, SERVER_CA, now);
            CertificateIssuer.Issued serving = serving(dir, ca, names, now);
            servingChain = List.of(serving.certificate());
            servingKey = serving.key();
            serverCa = ca.certificate();
        }

        List<X509Certificate> clientCas;
        Optional<CertificateIssuer.Issued> admin;
        if (flags.clientCaFile().isPresent()) {
            clientCas = Pem.certificates(flags.clientCaFile().get());
            admin = Optional.empty();
            log.info(
                    "client certificates are verified against {}: admin.kubeconfig carries no client certificate",
                    flags.clientCaFile().get());
        } else {
            CertificateIssuer.Issued clientCa = ca(dir, CLIENT_CA, now);
            clientCas = List.of(clientCa.certificate());
            admin = Optional.of(admin(dir, clientCa, now));
        }
        serviceAccountKey(dir);
        return new Material(
                servingChain,
                servingKey,
                serverCa,
                clientCas,
                admin,
                dir.resolve(SERVICE_ACCOUNT_KEY),
                dir.resolve(SERVICE_ACCOUNT_PUBLIC_KEY));
    }

    /**
     * A client certificate for {@code user} in {@code groups} (CN and O, as the server's x509
     * authenticator reads them), signed by the generated client CA under {@code dataDir}: what
     * {@code kubeadm kubeconfig user --client-name --org} issues. Nothing is written.
     *
     * @throws IOException when {@code dataDir} holds no generated client CA (no server started
     *     there yet, or it trusts an operator's {@code --client-ca-file}, whose key it never had)
     */
    public static CertificateIssuer.Issued issueClient(
            Path dataDir, String user, List<String> groups, Clock clock) throws IOException {
        Path dir = dataDir.resolve(DIRECTORY);
        Optional<CertificateIssuer.Issued> clientCa = read(dir, CLIENT_CA);
        if (clientCa.isEmpty()) {
            throw new IOException(
                    "no client CA under "
                            + dir
                            + " ("
                            + CLIENT_CA
                            + ".crt and "
                            + CLIENT_CA
                            + ".key): start the API server with this --data-dir first");
        }
        return CertificateIssuer.leaf(
                clientCa.get(),
                CertificateIssuer.subject(user, groups),
                CertificateIssuer.Usage.CLIENT,
                new ServingNames(List.of(), List.of()),
                clock.instant(),
                CertificateLifetimes.LEAF);
    }

    private static CertificateIssuer.Issued ca(Path dir, String name, Instant now)
            throws IOException {
        Optional<CertificateIssuer.Issued> existing = read(dir, name);
        if (existing.isPresent()) {
            return existing.get();
        }
        CertificateIssuer.Issued ca =
                CertificateIssuer.selfSignedCa(
                        "kubepekko-" + name + "@" + now.getEpochSecond(),
                        now,
                        CertificateLifetimes.CA);
        write(dir, name, ca);
        log.info("created {} under {}", name, dir);
        return ca;
    }

    private static CertificateIssuer.Issued serving(
            Path dir, CertificateIssuer.Issued ca, ServingNames names, Instant now)
            throws IOException {
        Optional<CertificateIssuer.Issued> existing = read(dir, SERVING);
        if (existing.isPresent()
                && current(existing.get().certificate(), ca, now)
                && covers(existing.get().certificate(), names)) {
            return existing.get();
        }
        CertificateIssuer.Issued serving =
                CertificateIssuer.leaf(
                        ca,
                        CertificateIssuer.subject("kube-apiserver", List.of()),
                        CertificateIssuer.Usage.SERVER,
                        names,
                        now,
                        CertificateLifetimes.LEAF);
        write(dir, SERVING, serving);
        log.info(
                "{} the serving certificate for {} {}",
                existing.isPresent() ? "reissued" : "created",
                names.dnsNames(),
                names.ipAddresses());
        return serving;
    }

    private static CertificateIssuer.Issued admin(
            Path dir, CertificateIssuer.Issued clientCa, Instant now) throws IOException {
        Optional<CertificateIssuer.Issued> existing = read(dir, ADMIN);
        if (existing.isPresent() && current(existing.get().certificate(), clientCa, now)) {
            return existing.get();
        }
        CertificateIssuer.Issued admin =
                CertificateIssuer.leaf(
                        clientCa,
                        CertificateIssuer.subject(ADMIN_USER, List.of(UserInfo.MASTERS)),
                        CertificateIssuer.Usage.CLIENT,
                        new ServingNames(List.of(), List.of()),
                        now,
                        CertificateLifetimes.LEAF);
        write(dir, ADMIN, admin);
        return admin;
    }

    /**
     * kube defaults to RSA for service-account keys; PKCS#1 and PKIX PEM as {@code
     * --service-account-signing-key-file} and {@code --service-account-key-file} read them.
     */
    private static void serviceAccountKey(Path dir) throws IOException {
        Path key = dir.resolve(SERVICE_ACCOUNT_KEY);
        Path pub = dir.resolve(SERVICE_ACCOUNT_PUBLIC_KEY);
        KeyPair pair;
        if (Files.exists(key)) {
            if (Files.exists(pub)) {
                return;
            }
            try {
                // Any form kube reads (PKCS#1, SEC 1, PKCS#8: openssl genpkey's, bin/cluster's).
                pair = ServiceAccountKeyFiles.signingKey(key);
            } catch (ServiceAccountKeyFiles.KeyFileException e) {
                throw new IOException(e.getMessage(), e);
            }
        } else {
            pair = CertificateIssuer.rsaKey();
            PrivateFiles.write(key, Pem.encode(pair.getPrivate()));
        }
        PrivateFiles.write(pub, Pem.encode(pair.getPublic()));
    }

    /** Signed by {@code ca} and not due for renewal. */
    private static boolean current(X509Certificate cert, CertificateIssuer.Issued ca, Instant now) {
        try {
            cert.verify(ca.certificate().getPublicKey());
        } catch (GeneralSecurityException e) {
            return false;
        }
        return !CertificateLifetimes.renewalDue(
                cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant(), now);
    }

    /** Whether {@code cert} names every one of {@code names} (IPs compared as addresses). */
    static boolean covers(X509Certificate cert, ServingNames names) {
        Set<String> dns = new HashSet<>();
        Set<InetAddress> ips = new HashSet<>();
        Collection<List<?>> sans;
        try {
            sans = cert.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return false;
        }
        if (sans != null) {
            for (List<?> san : sans) {
                int type = (Integer) san.get(0);
                if (type == 2) {
                    dns.add((String) san.get(1));
                } else if (type == 7) {
                    ips.add(CertificateIssuer.literal((String) san.get(1)));
                }
            }
        }
        List<InetAddress> wanted = new ArrayList<>();
        for (String ip : names.ipAddresses()) {
            wanted.add(CertificateIssuer.literal(ip));
        }
        return dns.containsAll(names.dnsNames()) && ips.containsAll(wanted);
    }

    private static Optional<CertificateIssuer.Issued> read(Path dir, String name)
            throws IOException {
        Path crt = dir.resolve(name + ".crt");
        Path key = dir.resolve(name + ".key");
        if (!Files.exists(crt) || !Files.exists(key)) {
            return Optional.empty();
        }
        return Optional.of(
                new CertificateIssuer.Issued(Pem.certificates(crt).get(0), Pem.privateKey(key)));
    }

    /** The key first: a certificate never exists without its key. */
    private static void write(Path dir, String name, CertificateIssuer.Issued issued)
            throws IOException {
        PrivateFiles.write(dir.resolve(name + ".key"), Pem.encode(issued.key()));
        PrivateFiles.write(dir.resolve(name + ".crt"), Pem.encode(issued.certificate()));
    }
}
