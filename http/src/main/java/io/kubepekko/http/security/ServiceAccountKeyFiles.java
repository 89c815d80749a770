package io.kubepekko.http.security;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.jcajce.provider.asymmetric.util.EC5Util;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Reads the service-account key files as kube's {@code keyutil} does: {@code
 * --service-account-key-file} (every RSA or ECDSA key of every PEM block: public keys, the public
 * half of private keys, certificates' keys; other blocks tolerated) and {@code
 * --service-account-signing-key-file} (the first RSA or ECDSA private key: PKCS#1, SEC1 or PKCS#8).
 */
public final class ServiceAccountKeyFiles {
    private ServiceAccountKeyFiles() {}

    /** A key file that cannot be used: the server does not start. */
    public static final class KeyFileException extends Exception {
        private static final long serialVersionUID = 1L;

        KeyFileException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final JcaPEMKeyConverter CONVERTER = new JcaPEMKeyConverter();

    /** The verification keys of {@code --service-account-key-file}, files in order. */
    public static List<PublicKey> publicKeys(List<Path> files) throws KeyFileException {
        List<PublicKey> keys = new ArrayList<>();
        for (Path file : files) {
            keys.addAll(publicKeys(file));
        }
        return List.copyOf(keys);
    }

    /** The verification keys of one file. */
    public static List<PublicKey> publicKeys(Path file) throws KeyFileException {
        String pem = read(file);
        List<PublicKey> keys = new ArrayList<>();
        try {
            for (Object block : blocks(pem)) {
                publicKeyOf(block).ifPresent(keys::add);
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new KeyFileException(
                    "error reading public key file " + file + ": " + e.getMessage(), e);
        }
        if (keys.isEmpty()) {
            throw new KeyFileException(
                    "error reading public key file "
                            + file
                            + ": data does not contain any valid RSA or ECDSA public keys",
                    null);
        }
        return List.copyOf(keys);
    }

    /** The signing key of {@code --service-account-signing-key-file}, with its public half. */
    public static KeyPair signingKey(Path file) throws KeyFileException {
        String pem = read(file);
        try {
            for (Object block : blocks(pem)) {
                Optional<KeyPair> pair = keyPairOf(block);
                if (pair.isPresent()) {
                    return pair.get();
                }
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new KeyFileException(
                    "error reading private key file " + file + ": " + e.getMessage(), e);
        }
        throw new KeyFileException(
                "error reading private key file "
                        + file
                        + ": data does not contain a valid RSA or ECDSA private key",
                null);
    }

    /** The file's text; a file that cannot be read is refused in Go's {@code os.ReadFile} words. */
    private static String read(Path file) throws KeyFileException {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new KeyFileException("open " + file + ": no such file or directory", e);
        } catch (AccessDeniedException e) {
            throw new KeyFileException("open " + file + ": permission denied", e);
        } catch (IOException e) {
            throw new KeyFileException("read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The PEM blocks of a text, parsed as far as Bouncy Castle knows their types. */
    static List<Object> blocks(String pem) throws IOException {
        List<Object> blocks = new ArrayList<>();
        try (Reader reader = new StringReader(pem);
                PEMParser parser = new PEMParser(reader)) {
            Object block;
            while ((block = parser.readObject()) != null) {
                blocks.add(block);
            }
        }
        return blocks;
    }

    private static Optional<PublicKey> publicKeyOf(Object block)
            throws IOException, GeneralSecurityException {
        if (block instanceof SubjectPublicKeyInfo info) {
            return supported(CONVERTER.getPublicKey(info));
        }
        if (block instanceof X509CertificateHolder cert) {
            return supported(CONVERTER.getPublicKey(cert.getSubjectPublicKeyInfo()));
        }
        return keyPairOf(block).map(KeyPair::getPublic);
    }

    private static Optional<KeyPair> keyPairOf(Object block)
            throws IOException, GeneralSecurityException {
        PrivateKeyInfo info;
        if (block instanceof PEMKeyPair pair) {
            // SEC1 keys may leave the public point out; then it is derived like PKCS#8's.
            if (pair.getPublicKeyInfo() != null) {
                KeyPair keys = CONVERTER.getKeyPair(pair);
                return supported(keys.getPublic()).map(p -> keys);
            }
            info = pair.getPrivateKeyInfo();
        } else if (block instanceof PrivateKeyInfo pkcs8) {
            info = pkcs8;
        } else {
            return Optional.empty();
        }
        PrivateKey key = CONVERTER.getPrivateKey(info);
        return publicOf(key).map(p -> new KeyPair(p, key));
    }

    // A PKCS#8 key need not carry its public half: derive it (RSA from the CRT fields, EC as d*G).
    private static Optional<PublicKey> publicOf(PrivateKey key) throws GeneralSecurityException {
        if (key instanceof RSAPrivateCrtKey rsa) {
            return Optional.of(
                    KeyFactory.getInstance("RSA")
                            .generatePublic(
                                    new RSAPublicKeySpec(
                                            rsa.getModulus(), rsa.getPublicExponent())));
        }
        if (key instanceof ECPrivateKey ec) {
            ECPoint w =
                    EC5Util.convertPoint(
                            EC5Util.convertSpec(ec.getParams())
                                    .getG()
                                    .multiply(ec.getS())
                                    .normalize());
            return supported(
                    KeyFactory.getInstance("EC")
                            .generatePublic(new ECPublicKeySpec(w, ec.getParams())));
        }
        return Optional.empty();
    }

    private static Optional<PublicKey> supported(PublicKey key) {
        String alg = key.getAlgorithm();
        return alg.equals("RSA") || alg.equals("EC") || alg.equals("ECDSA")
                ? Optional.of(key)
                : Optional.empty();
    }
}
