package io.kubepekko.http.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.junit.jupiter.api.Test;

/**
 * Private keys written in the forms client-go's {@code keyutil} writes (and fabric8, through Bouncy
 * Castle's PEM parser, reads), and read in every form an operator or an older data directory
 * brings.
 */
class PemTest {
    private static final CertificateIssuer.Issued CA =
            CertificateIssuer.selfSignedCa("pem-test", Instant.now(), Duration.ofDays(1));

    @Test
    void anEcKeyIsWrittenAsSec1WithItsNamedCurveAndThePublicKeyOfItsCertificate() throws Exception {
        String pem = Pem.encode(CA.key());

        assertTrue(pem.startsWith("-----BEGIN EC PRIVATE KEY-----\n"), pem);
        Object block;
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            block = parser.readObject();
        }
        PEMKeyPair parsed = assertInstanceOf(PEMKeyPair.class, block);
        assertNotNull(parsed.getPublicKeyInfo(), "the public key is in the structure");
        ECPrivateKey sec1 = ECPrivateKey.getInstance(parsed.getPrivateKeyInfo().parsePrivateKey());
        assertEquals(SECObjectIdentifiers.secp256r1, sec1.getParametersObject(), "named curve");
        KeyPair pair = new JcaPEMKeyConverter().getKeyPair(parsed);
        assertEquals(CA.certificate().getPublicKey(), pair.getPublic());
        assertEquals(s(CA.key()), s(pair.getPrivate()));
    }

    @Test
    void anEcKeyIsReadInSec1AsWrittenAndInPkcs8AsDataDirectoriesAndOperatorsHoldIt()
            throws Exception {
        String sec1 = Pem.encode(CA.key());
        String pkcs8 = pem("PRIVATE KEY", CA.key().getEncoded());

        assertEquals(s(CA.key()), s(Pem.privateKey(sec1, "sec1")));
        assertEquals(s(CA.key()), s(Pem.privateKey(pkcs8, "pkcs8")));
    }

    @Test
    void anRsaKeyStaysPkcs1AsKubeadmWritesItAndIsReadInPkcs1AndPkcs8() throws Exception {
        KeyPair rsa = CertificateIssuer.rsaKey();
        String pkcs1 = Pem.encode(rsa.getPrivate());

        assertTrue(pkcs1.startsWith("-----BEGIN RSA PRIVATE KEY-----\n"), pkcs1);
        assertEquals(modulus(rsa.getPrivate()), modulus(Pem.privateKey(pkcs1, "pkcs1")));
        assertEquals(
                modulus(rsa.getPrivate()),
                modulus(Pem.privateKey(pem("PRIVATE KEY", rsa.getPrivate().getEncoded()), "p8")));
    }

    /** The private scalar of an EC key, whatever its class. */
    private static BigInteger s(PrivateKey key) throws IOException {
        return ECPrivateKey.getInstance(
                        PrivateKeyInfo.getInstance(key.getEncoded()).parsePrivateKey())
                .getKey();
    }

    private static Object modulus(PrivateKey key) {
        return assertInstanceOf(RSAPrivateKey.class, key).getModulus();
    }

    static String pem(String type, byte[] der) throws Exception {
        StringWriter out = new StringWriter();
        try (PemWriter w = new PemWriter(out)) {
            w.writeObject(new PemObject(type, der));
        }
        return out.toString();
    }
}
