package io.kubepekko.http.webhook;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trust for a webhook called through its Service: the connection goes to an endpoint's address, but
 * the certificate must be signed by the caBundle (else the system trust) and name {@code
 * <service>.<namespace>.svc}, as kube's client sets its TLS server name. The JDK's own hostname
 * check would compare the address; this one compares the Service's name instead (DNS names of the
 * subject alternative names, a leading {@code *} matching one label, as Go's).
 */
final class ServiceTrust extends X509ExtendedTrustManager {

    /** The certificate does not name the Service: Go's {@code x509.HostnameError} text. */
    static final class NameMismatch extends CertificateException {
        private static final long serialVersionUID = 1L;

        NameMismatch(String message) {
            super(message);
        }
    }

    private final X509TrustManager chain;
    private final String serverName;

    private ServiceTrust(X509TrustManager chain, String serverName) {
        this.chain = chain;
        this.serverName = serverName;
    }

    /**
     * Trusting {@code cas} (the system's when empty) for certificates naming {@code serverName}.
     */
    static ServiceTrust of(List<X509Certificate> cas, String serverName)
            throws GeneralSecurityException, IOException {
        KeyStore store = null;
        if (!cas.isEmpty()) {
            store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca" + i, cas.get(i));
            }
        }
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return new ServiceTrust(x, serverName);
            }
        }
        throw new GeneralSecurityException("no X509 trust manager");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType)
            throws CertificateException {
        chain.checkServerTrusted(certs, authType);
        checkName(certs[0]);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(certs, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(certs, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType)
            throws CertificateException {
        throw new CertificateException("a webhook client trusts no clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        checkClientTrusted(certs, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        checkClientTrusted(certs, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return chain.getAcceptedIssuers();
    }

    private void checkName(X509Certificate leaf) throws CertificateException {
        List<String> names = dnsNames(leaf);
        String wanted = serverName.toLowerCase(Locale.ROOT);
        for (String n : names) {
            if (matches(n.toLowerCase(Locale.ROOT), wanted)) {
                return;
            }
        }
        throw new NameMismatch(
                names.isEmpty()
                        ? "x509: certificate is not valid for any names, but wanted to match "
                                + serverName
                        : "x509: certificate is valid for "
                                + String.join(", ", names)
                                + ", not "
                                + serverName);
    }

    private static boolean matches(String pattern, String host) {
        if (pattern.equals(host)) {
            return true;
        }
        if (!pattern.startsWith("*.")) {
            return false;
        }
        int dot = host.indexOf('.');
        return dot > 0 && host.substring(dot).equals(pattern.substring(1));
    }

    private static List<String> dnsNames(X509Certificate leaf) throws CertificateParsingException {
        List<String> out = new ArrayList<>();
        if (leaf.getSubjectAlternativeNames() == null) {
            return out;
        }
        for (List<?> san : leaf.getSubjectAlternativeNames()) {
            if (san.size() >= 2 && Integer.valueOf(2).equals(san.get(0))) {
                out.add(String.valueOf(san.get(1)));
            }
        }
        return out;
    }
}
