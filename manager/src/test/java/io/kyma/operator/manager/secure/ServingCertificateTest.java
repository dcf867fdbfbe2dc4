package io.kyma.operator.manager.secure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.kyma.operator.testing.MutableClock;

class ServingCertificateTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T10:00:00Z"));

    @TempDir
    Path dir;

    @Test
    void aSelfSignedCertificateIsValidForAYearAndNamesItsHosts() throws Exception {
        ServingCertificate served = ServingCertificate.selfSigned(List.of("localhost", "127.0.0.1", "pod-0"), clock);
        X509Certificate certificate = served.certificate();
        certificate.verify(certificate.getPublicKey());
        certificate.checkValidity(java.util.Date.from(clock.instant()));
        assertThat(certificate.getVersion()).isEqualTo(3);
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=" + SelfSigned.SUBJECT);
        assertThat(certificate.getNotAfter().toInstant())
                .isEqualTo(clock.instant().plus(Duration.ofDays(365)));
        assertThat(certificate.getSubjectAlternativeNames())
                .containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"), List.of(2, "pod-0"));
        String alias = served.chooseServerAlias("EC", null, null);
        assertThat(served.getPrivateKey(alias).getAlgorithm()).isEqualTo("EC");
        assertThat(served.chooseServerAlias("RSA", null, null)).isNull();
    }

    @Test
    void readsPkcs8Pkcs1AndSec1KeysAsCertManagerAndOpensslWriteThem() throws Exception {
        writeSelfSigned();
        assertThat(subject()).isEqualTo("CN=" + SelfSigned.SUBJECT);
        for (String name : List.of("rsa-pkcs1", "ec-sec1")) {
            Files.write(dir.resolve("tls.crt"), resource(name + ".crt"));
            Files.write(dir.resolve("tls.key"), resource(name + ".key"));
            ServingCertificate served = ServingCertificate.fromDirectory(dir, clock);
            String type = name.startsWith("rsa") ? "RSA" : "EC";
            String alias = served.chooseServerAlias(type, null, null);
            assertThat(alias).as(name).isNotNull();
            assertThat(served.getPrivateKey(alias).getAlgorithm()).isEqualTo(type);
            assertThat(served.getCertificateChain(alias)[0]
                            .getSubjectX500Principal()
                            .getName())
                    .isEqualTo("CN=" + (name.startsWith("rsa") ? "pkcs1-test" : "sec1-test"));
        }
    }

    @Test
    void anUnusablePairIsRefusedNamingTheFile() throws Exception {
        assertThatThrownBy(() -> ServingCertificate.fromDirectory(dir, clock))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tls.crt");
        Files.write(dir.resolve("tls.crt"), resource("rsa-pkcs1.crt"));
        Files.writeString(dir.resolve("tls.key"), "not a key");
        assertThatThrownBy(() -> ServingCertificate.fromDirectory(dir, clock))
                .hasMessageContaining("tls.key")
                .hasMessageContaining("no PRIVATE KEY");
        Files.write(dir.resolve("tls.key"), resource("ec-sec1.key"));
        assertThatThrownBy(() -> ServingCertificate.fromDirectory(dir, clock))
                .hasMessageContaining("tls.key is an EC key, the certificate of tls.crt holds an RSA key");
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefused() throws Exception {
        Files.write(dir.resolve("tls.crt"), resource("ec-sec1.crt"));
        SelfSigned.KeyAndCertificate other = SelfSigned.create(List.of("localhost"), clock.instant());
        Files.writeString(
                dir.resolve("tls.key"),
                pem("PRIVATE KEY", other.keys().getPrivate().getEncoded()));
        assertThatThrownBy(() -> ServingCertificate.fromDirectory(dir, clock))
                .hasMessageContaining("tls.key is not the key of the certificate of tls.crt");
    }

    @Test
    void aSelfSignedCertificateIsMadeAgainAMonthBeforeItExpires() {
        ServingCertificate served = ServingCertificate.selfSigned(List.of("localhost"), clock);
        X509Certificate first = served.certificate();
        clock.advance(
                Duration.ofDays(365).minus(ServingCertificate.RENEW_BEFORE).minusDays(1));
        assertThat(served.certificate()).isSameAs(first);
        clock.advance(Duration.ofDays(1));
        X509Certificate second = served.certificate();
        assertThat(second.getSerialNumber()).isNotEqualTo(first.getSerialNumber());
        assertThat(second.getNotAfter().toInstant()).isEqualTo(clock.instant().plus(Duration.ofDays(365)));
    }

    @Test
    void aRotatedPairIsServedWithinTenSecondsAndABrokenOneIgnored() throws Exception {
        Files.write(dir.resolve("tls.crt"), resource("rsa-pkcs1.crt"));
        Files.write(dir.resolve("tls.key"), resource("rsa-pkcs1.key"));
        ServingCertificate served = ServingCertificate.fromDirectory(dir, clock);
        String first = served.chooseServerAlias("RSA", null, null);

        Files.write(dir.resolve("tls.crt"), resource("ec-sec1.crt"));
        Files.write(dir.resolve("tls.key"), resource("ec-sec1.key"));
        clock.advance(ServingCertificate.RECHECK.minusSeconds(1));
        assertThat(served.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=pkcs1-test");
        clock.advance(Duration.ofSeconds(1));
        assertThat(served.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=sec1-test");
        String second = served.chooseServerAlias("EC", null, null);
        assertThat(second).isNotEqualTo(first);
        // a handshake that chose the first pair a moment before still gets its key and chain
        assertThat(served.getPrivateKey(first).getAlgorithm()).isEqualTo("RSA");

        Files.writeString(dir.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        clock.advance(ServingCertificate.RECHECK);
        assertThat(served.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=sec1-test");
        assertThat(served.chooseServerAlias("EC", null, null)).isEqualTo(second);
    }

    private void writeSelfSigned() throws Exception {
        SelfSigned.KeyAndCertificate made = SelfSigned.create(List.of("localhost"), clock.instant());
        Files.writeString(
                dir.resolve("tls.crt"), pem("CERTIFICATE", made.certificate().getEncoded()));
        Files.writeString(
                dir.resolve("tls.key"),
                pem("PRIVATE KEY", made.keys().getPrivate().getEncoded()));
    }

    private String subject() {
        return ServingCertificate.fromDirectory(dir, clock)
                .certificate()
                .getSubjectX500Principal()
                .getName();
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ServingCertificateTest.class.getResourceAsStream("/secure/" + name)) {
            return Objects.requireNonNull(in, name).readAllBytes();
        }
    }
}
