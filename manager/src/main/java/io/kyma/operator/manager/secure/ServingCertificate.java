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
 * The certificate {@code /metrics} serves HTTPS with: self-signed at start-up, or {@code tls.crt} and {@code tls.key}
 * of a directory (a mounted Secret of cert-manager's), read again when their content changes, checked at most every
 * {@link #RECHECK} on a handshake, so a rotated certificate is served without a restart. A change that does not parse
 * is logged and the last good pair kept.
 */
public final class ServingCertificate extends X509ExtendedKeyManager {
    static final Duration RECHECK = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(ServingCertificate.class);
    private static final String ALIAS = "metrics-";

    /** One certificate chain and its key; the alias names the generation, so a handshake never mixes two. */
    private record Pair(long generation, X509Certificate[] chain, PrivateKey key, byte[] crt, byte[] keyPem) {
        String alias() {
            return ALIAS + generation;
        }
    }

    private final Optional<Path> dir;
    private final Clock clock;
    private volatile Pair current;
    private volatile Pair previous;
    private volatile Instant checked;

    private ServingCertificate(Optional<Path> dir, Clock clock, Pair first) {
        this.dir = dir;
        this.clock = clock;
        this.current = first;
        this.previous = first;
        this.checked = clock.instant();
    }

    /** A fresh self-signed certificate for {@code names} (DNS names or IP addresses). */
    public static ServingCertificate selfSigned(List<String> names, Clock clock) {
        SelfSigned.KeyAndCertificate made = SelfSigned.create(names, clock.instant());
        return new ServingCertificate(
                Optional.empty(),
                clock,
                new Pair(
                        0,
                        new X509Certificate[] {made.certificate()},
                        made.keys().getPrivate(),
                        new byte[0],
                        new byte[0]));
    }

    /**
     * The pair in {@code dir}.
     *
     * @throws IllegalArgumentException naming the file when either is missing or does not parse
     */
    public static ServingCertificate fromDirectory(Path dir, Clock clock) {
        try {
            return new ServingCertificate(Optional.of(dir), clock, read(dir, 0));
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

    private Pair refreshed() {
        Pair now = current;
        if (dir.isEmpty() || Duration.between(checked, clock.instant()).compareTo(RECHECK) < 0) {
            return now;
        }
        synchronized (this) {
            if (Duration.between(checked, clock.instant()).compareTo(RECHECK) < 0) {
                return current;
            }
            checked = clock.instant();
            try {
                byte[] crt = Files.readAllBytes(dir.get().resolve("tls.crt"));
                byte[] key = Files.readAllBytes(dir.get().resolve("tls.key"));
                if (Arrays.equals(crt, current.crt()) && Arrays.equals(key, current.keyPem())) {
                    return current;
                }
                Pair next = parse(dir.get(), current.generation() + 1, crt, key);
                previous = current;
                current = next;
                LOG.info(
                        "Serving /metrics with the new certificate of {} (subject {}, valid until {})",
                        dir.get(),
                        next.chain()[0].getSubjectX500Principal(),
                        next.chain()[0].getNotAfter().toInstant());
            } catch (IOException | GeneralSecurityException e) {
                LOG.warn("Keeping the certificate served for /metrics: {}", e.getMessage());
            }
            return current;
        }
    }

    private static Pair read(Path dir, long generation) throws IOException, GeneralSecurityException {
        return parse(
                dir,
                generation,
                Files.readAllBytes(dir.resolve("tls.crt")),
                Files.readAllBytes(dir.resolve("tls.key")));
    }

    private static Pair parse(Path dir, long generation, byte[] crt, byte[] key) throws GeneralSecurityException {
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
        return new Pair(generation, chain, privateKey, crt, key);
    }

    private Optional<Pair> byAlias(String alias) {
        Pair now = current;
        Pair before = previous;
        if (now.alias().equals(alias)) {
            return Optional.of(now);
        }
        return before.alias().equals(alias) ? Optional.of(before) : Optional.empty();
    }

    private String aliasFor(String keyType) {
        Pair pair = refreshed();
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
        return byAlias(alias).map(Pair::key).orElse(null);
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
