package io.kyma.operator.manager.secure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Arrays;

/**
 * One certificate chain and its key, as read (with the files' bytes, to tell a change) or made; the alias names the
 * generation, so a handshake never mixes two.
 */
record CertificatePair(long generation, X509Certificate[] chain, PrivateKey key, byte[] crt, byte[] keyPem) {
    private static final String ALIAS = "metrics-";

    String alias() {
        return ALIAS + generation;
    }

    /** Reads the pair; tls.crt twice, so that a pair read while the Secret's files were swapped is not taken. */
    static CertificatePair read(Path dir, long generation) throws IOException, GeneralSecurityException {
        return read(
                dir,
                generation,
                Files.readAllBytes(dir.resolve("tls.crt")),
                Files.readAllBytes(dir.resolve("tls.key")));
    }

    /**
     * The pair of {@code crt} and {@code key}, just read from {@code dir} in that order; tls.crt is read once more, so
     * that a pair read while the Secret's files were swapped is not taken.
     */
    static CertificatePair read(Path dir, long generation, byte[] crt, byte[] key)
            throws IOException, GeneralSecurityException {
        if (!Arrays.equals(crt, Files.readAllBytes(dir.resolve("tls.crt")))) {
            throw new GeneralSecurityException(dir.resolve("tls.crt") + " changed while it was read");
        }
        return parse(dir, generation, crt, key);
    }

    private static CertificatePair parse(Path dir, long generation, byte[] crt, byte[] key)
            throws GeneralSecurityException {
        X509Certificate[] chain;
        PrivateKey privateKey;
        try {
            chain = Pem.certificates(crt);
        } catch (GeneralSecurityException e) {
            throw new GeneralSecurityException(dir.resolve("tls.crt") + ": " + e.getMessage(), e);
        }
        try {
            privateKey = Pem.privateKey(key);
        } catch (GeneralSecurityException e) {
            throw new GeneralSecurityException(dir.resolve("tls.key") + ": " + e.getMessage(), e);
        }
        if (!chain[0].getPublicKey().getAlgorithm().equals(privateKey.getAlgorithm())) {
            throw new GeneralSecurityException(dir.resolve("tls.key") + " is an " + privateKey.getAlgorithm()
                    + " key, the certificate of tls.crt holds an "
                    + chain[0].getPublicKey().getAlgorithm() + " key");
        }
        if (!matches(privateKey, chain[0])) {
            throw new GeneralSecurityException(
                    dir.resolve("tls.key") + " is not the key of the certificate of tls.crt");
        }
        return new CertificatePair(generation, chain, privateKey, crt, key);
    }

    /** Whether a signature by {@code key} verifies with the certificate's public key. */
    private static boolean matches(PrivateKey key, X509Certificate certificate) throws GeneralSecurityException {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        byte[] probe = "kyma-operator metrics key check".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(certificate.getPublicKey());
        verifier.update(probe);
        return verifier.verify(signature);
    }
}
