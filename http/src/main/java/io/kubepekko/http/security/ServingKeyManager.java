package io.kubepekko.http.security;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents one serving chain and its key, held as they are. The JDK's own key managers only take a
 * {@code KeyStore}, and an in-memory PKCS12 store encrypts the key as it is added and decrypts it
 * for the manager (PBKDF2, 10,000 rounds each way): about 0.2 s of a cold server's start spent on a
 * key that never leaves memory.
 *
 * <p>Like the JDK's SunX509 manager, it answers only for the key type the handshake asks for (the
 * part before an underscore: {@code EC} of {@code EC_EC}), so a client that accepts no signature
 * our key can make fails the handshake as it would there, and ignores the issuers a client names,
 * as Go's server does.
 */
final class ServingKeyManager extends X509ExtendedKeyManager {
    private static final String ALIAS = "serving";
    private final X509Certificate[] chain;
    private final PrivateKey key;

    ServingKeyManager(List<X509Certificate> chain, PrivateKey key) {
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a serving chain needs its leaf certificate");
        }
        this.chain = chain.toArray(new X509Certificate[0]);
        this.key = key;
    }

    private String aliasFor(String keyType) {
        if (keyType == null) {
            return null;
        }
        int underscore = keyType.indexOf('_');
        String algorithm = underscore < 0 ? keyType : keyType.substring(0, underscore);
        return algorithm.equals(key.getAlgorithm()) ? ALIAS : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return aliasFor(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return aliasFor(keyType);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        String alias = aliasFor(keyType);
        return alias == null ? null : new String[] {alias};
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? key : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
