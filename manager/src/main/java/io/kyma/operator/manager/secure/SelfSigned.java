package io.kyma.operator.manager.secure;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A self-signed serving certificate made at start-up, as kubebuilder's secure metrics make one when no certificate is
 * given: an ECDSA P-256 key, valid for a year from an hour ago (in UTCTime, which X.509 uses until 2049), with the DNS names and IP addresses given as subject
 * alternative names. A client checks it only by pinning it; a scraper that verifies certificates needs one from the
 * cluster's issuer ({@code --metrics-cert-dir}).
 */
final class SelfSigned {
    static final String SUBJECT = "kyma-operator-metrics";
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";

    private SelfSigned() {}

    record KeyAndCertificate(KeyPair keys, X509Certificate certificate) {}

    static KeyAndCertificate create(List<String> names, Instant now) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
            byte[] name = Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8(SUBJECT))));
            byte[] serial = new byte[16];
            new SecureRandom().nextBytes(serial);
            byte[] tbs = Der.sequence(
                    Der.explicit(0, Der.integer(BigInteger.TWO)),
                    Der.integer(new BigInteger(1, serial)),
                    algorithm,
                    name,
                    Der.sequence(
                            Der.utcTime(now.minus(Duration.ofHours(1))), Der.utcTime(now.plus(Duration.ofDays(365)))),
                    name,
                    keys.getPublic().getEncoded(),
                    Der.explicit(
                            3,
                            Der.sequence(
                                    Der.sequence(Der.oid(SUBJECT_ALT_NAME), Der.octets(alternativeNames(names))))));
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate());
            signer.update(tbs);
            byte[] certificate = Der.sequence(tbs, algorithm, Der.bits(signer.sign()));
            return new KeyAndCertificate(keys, (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(certificate)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a self-signed certificate for /metrics: " + e, e);
        }
    }

    /** GeneralNames: a dNSName ([2]) per name, an iPAddress ([7]) per literal address. */
    private static byte[] alternativeNames(List<String> names) {
        List<byte[]> general = new ArrayList<>();
        for (String name : names) {
            if (isAddressLiteral(name)) {
                try {
                    general.add(Der.implicit(7, InetAddress.getByName(name).getAddress()));
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("not an IP address: " + name, e);
                }
            } else {
                general.add(Der.implicit(2, name.getBytes(StandardCharsets.US_ASCII)));
            }
        }
        return Der.sequence(general.toArray(byte[][]::new));
    }

    private static boolean isAddressLiteral(String name) {
        return name.contains(":") || name.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }
}
