package io.kyma.operator.manager.secure;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a PEM certificate chain and a PEM private key as cert-manager and {@code openssl} write them: the key as
 * PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC 1 ({@code EC PRIVATE KEY}).
 */
final class Pem {
    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");
    private static final String RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
    private static final String EC_PUBLIC_KEY = "1.2.840.10045.2.1";

    private Pem() {}

    static X509Certificate[] certificates(byte[] pem) throws GeneralSecurityException {
        List<X509Certificate> chain =
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)).stream()
                        .map(X509Certificate.class::cast)
                        .toList();
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no certificate in it");
        }
        return chain.toArray(X509Certificate[]::new);
    }

    static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
        Matcher block = BLOCK.matcher(new String(pem, StandardCharsets.US_ASCII));
        while (block.find()) {
            String type = block.group(1);
            byte[] der = Base64.getMimeDecoder().decode(block.group(2));
            switch (type) {
                case "PRIVATE KEY":
                    return pkcs8(der);
                case "RSA PRIVATE KEY":
                    return pkcs8(Der.sequence(
                            Der.integer(BigInteger.ZERO),
                            Der.sequence(Der.oid(RSA_ENCRYPTION), Der.nul()),
                            Der.octets(der)));
                case "EC PRIVATE KEY":
                    return pkcs8(Der.sequence(
                            Der.integer(BigInteger.ZERO),
                            Der.sequence(Der.oid(EC_PUBLIC_KEY), curveOf(der)),
                            Der.octets(der)));
                default:
                // EC PARAMETERS and the like come before the key in some files
            }
        }
        throw new GeneralSecurityException(
                "no PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block (an encrypted key is not supported)");
    }

    /** The named curve of a SEC 1 ECPrivateKey: its {@code [0] parameters}. */
    private static byte[] curveOf(byte[] sec1) throws GeneralSecurityException {
        try {
            Der.Element key = Der.Element.at(sec1, 0);
            for (Der.Element e = key.firstChild(); ; e = e.next()) {
                if (e.tag() == 0xa0) {
                    Der.Element curve = e.firstChild();
                    if (curve.tag() != Der.OID) {
                        throw new GeneralSecurityException("the EC key's parameters are not a named curve");
                    }
                    return curve.encoded();
                }
                if (!e.hasNext(key)) {
                    break;
                }
            }
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("malformed EC PRIVATE KEY: " + e.getMessage(), e);
        }
        throw new GeneralSecurityException("the EC PRIVATE KEY does not name its curve");
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        GeneralSecurityException last = null;
        for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw new GeneralSecurityException("not an RSA, EC or Ed25519 private key", last);
    }
}
