package io.kyma.operator.manager.secure;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The certificate {@code /metrics} serves HTTPS with: self-signed at start-up (and made again {@link #RENEW_BEFORE}
 * before it expires), or {@code tls.crt} and {@code tls.key} of a directory (a mounted Secret of cert-manager's), read
 * again when their content changes, checked at most every {@link #RECHECK} on a handshake, so a rotated certificate
 * is served without a restart. A pair that does not parse, or whose key does not match the certificate (read while
 * the kubelet swapped the Secret's files), is logged once and the last good pair kept.
 */
public final class ServingCertificate extends X509ExtendedKeyManager {
    static final Duration RECHECK = Duration.ofSeconds(10);
    static final Duration RENEW_BEFORE = Duration.ofDays(30);
    private static final Logger LOG = LoggerFactory.getLogger(ServingCertificate.class);

    private final Optional<Path> dir;
    private final List<String> selfSignedNames;
    private final Clock clock;
    private volatile CertificatePair current;
    private volatile CertificatePair previous;
    private volatile Instant checked;
    /** The files' content that last failed, so that the same failure is logged once. */
    private byte[] failed = new byte[0];

    private ServingCertificate(Optional<Path> dir, List<String> selfSignedNames, Clock clock, CertificatePair first) {
        this.dir = dir;
        this.selfSignedNames = List.copyOf(selfSignedNames);
        this.clock = clock;
        this.current = first;
        this.previous = first;
        this.checked = clock.instant();
    }

    /** A fresh self-signed certificate for {@code names} (DNS names or IP addresses). */
    public static ServingCertificate selfSigned(List<String> names, Clock clock) {
        return new ServingCertificate(Optional.empty(), names, clock, selfSignedPair(names, clock, 0));
    }

    private static CertificatePair selfSignedPair(List<String> names, Clock clock, long generation) {
        SelfSigned.KeyAndCertificate made = SelfSigned.create(names, clock.instant());
        return new CertificatePair(
                generation,
                new X509Certificate[] {made.certificate()},
                made.keys().getPrivate(),
                new byte[0],
                new byte[0]);
    }

    /**
     * The pair in {@code dir}.
     *
     * @throws IllegalArgumentException naming the file when either is missing or does not parse
     */
    public static ServingCertificate fromDirectory(Path dir, Clock clock) {
        try {
            return new ServingCertificate(Optional.of(dir), List.of(), clock, CertificatePair.read(dir, 0));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** A TLS context serving this certificate. */
    public SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new X509ExtendedKeyManager[] {this}, null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS is not available in this JVM: " + e, e);
        }
    }

    /** The certificate served now. */
    public X509Certificate certificate() {
        return refreshed().chain()[0];
    }

    private CertificatePair refreshed() {
        CertificatePair now = current;
        if (Duration.between(checked, clock.instant()).compareTo(RECHECK) < 0) {
            return now;
        }
        synchronized (this) {
            if (Duration.between(checked, clock.instant()).compareTo(RECHECK) < 0) {
                return current;
            }
            checked = clock.instant();
            if (dir.isEmpty()) {
                if (!clock.instant()
                        .isBefore(current.chain()[0].getNotAfter().toInstant().minus(RENEW_BEFORE))) {
                    replace(selfSignedPair(selfSignedNames, clock, current.generation() + 1), "a new self-signed");
                }
                return current;
            }
            try {
                byte[] crt = Files.readAllBytes(dir.get().resolve("tls.crt"));
                byte[] key = Files.readAllBytes(dir.get().resolve("tls.key"));
                if (Arrays.equals(crt, current.crt()) && Arrays.equals(key, current.keyPem())) {
                    return current;
                }
                byte[] both = concat(crt, key);
                if (Arrays.equals(both, failed)) {
                    return current;
                }
                try {
                    replace(
                            CertificatePair.read(dir.get(), current.generation() + 1, crt, key),
                            "the new certificate of " + dir.get() + ":");
                } catch (GeneralSecurityException e) {
                    failed = both;
                    LOG.warn("Keeping the certificate served for /metrics: {}", e.getMessage());
                }
            } catch (IOException e) {
                LOG.warn("Keeping the certificate served for /metrics: cannot read {}", e.getMessage());
            }
            return current;
        }
    }

    private void replace(CertificatePair next, String what) {
        previous = current;
        current = next;
        LOG.info(
                "Serving /metrics with {} subject {}, valid until {}",
                what,
                next.chain()[0].getSubjectX500Principal(),
                next.chain()[0].getNotAfter().toInstant());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private Optional<CertificatePair> byAlias(String alias) {
        CertificatePair now = current;
        CertificatePair before = previous;
        if (now.alias().equals(alias)) {
            return Optional.of(now);
        }
        return before.alias().equals(alias) ? Optional.of(before) : Optional.empty();
    }

    private String aliasFor(String keyType) {
        CertificatePair pair = refreshed();
        return keyType != null && keyType.equals(pair.key().getAlgorithm()) ? pair.alias() : null;
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
        return byAlias(alias).map(p -> p.chain().clone()).orElse(null);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return byAlias(alias).map(CertificatePair::key).orElse(null);
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
