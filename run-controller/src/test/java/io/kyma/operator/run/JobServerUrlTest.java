package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobServerUrlTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://h:9090|http://h:9090/jobs|http://h:9090/jobs/a-1.b:c_d?tailBytes=5",
                "http://h/api|http://h/api/jobs|http://h/api/jobs/a-1.b:c_d?tailBytes=5",
                "https://h/api/|https://h/api/jobs|https://h/api/jobs/a-1.b:c_d?tailBytes=5",
                "HTTP://[::1]:80|http://[::1]:80/jobs|http://[::1]:80/jobs/a-1.b:c_d?tailBytes=5"
            })
    void keepsTheBasePathForEveryRequest(String base, String jobs, String job) {
        JobServerUrl url = JobServerUrl.parse(base);
        assertThat(url.jobs()).hasToString(jobs);
        assertThat(url.job("a-1.b:c_d", "tailBytes=5")).hasToString(job);
    }

    @Test
    void anIdThatWouldNameAnotherPathOrNeedEncodingIsRefusedNotEncoded() {
        JobServerUrl url = JobServerUrl.parse("http://h/api");
        List<String> bad = new ArrayList<>(List.of(
                "",
                ".",
                "..",
                "../x",
                "a/b",
                "a?b",
                "a#b",
                "a%2e",
                "a b",
                "-a",
                ".hidden",
                "_a",
                ":a",
                "x".repeat(129)));
        for (char c = 0; c < 0x20; c++) {
            bad.add("a" + c + "b");
        }
        for (String special : List.of("\\", "\"", "<", ">", "+", "&", "=", "@", "\u00e9", "\u202e")) {
            bad.add("a" + special + "b");
        }
        for (String id : bad) {
            assertThatThrownBy(() -> url.job(id, "")).as(id).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(url.job("x".repeat(128), "")).hasToString("http://h/api/jobs/" + "x".repeat(128));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://127.0.0.1:99999|the port must be between 1 and 65535",
                "http://127.0.0.1:0|the port must be between 1 and 65535",
                "http://127.0.0.1:9090/a%zz|not a valid URL: Malformed escape pair",
                "http://job_server:9090|no valid host name",
                "ftp://h|the scheme must be http or https",
                "http://u:p@h|credentials in the URL are not allowed",
                "http://h/?q=1|a base URL has no query or fragment",
                "http://h/a^b|not a valid URL: Illegal character"
            })
    void rejectsWhatTheHttpClientCouldNotUseSayingWhyWithoutEchoingIt(String text, String why) {
        assertThatThrownBy(() -> JobServerUrl.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(why);
    }

    @Test
    void oneAddressWrittenManyWaysIsOneServiceForThePerServerLimitOrRefused() {
        for (String spelling : List.of(
                "http://10.96.5.5", "http://10.96.5.5:80", "http://[::ffff:10.96.5.5]", "http://[::ffff:a60:505]")) {
            assertThat(JobServerUrl.parse(spelling).origin()).as(spelling).isEqualTo("http://10.96.5.5:80");
        }
        assertThat(JobServerUrl.parse("http://[2001:DB8:0::1]:8080").origin())
                .isEqualTo("http://[2001:db8:0:0:0:0:0:1]:8080");
        assertThat(JobServerUrl.parse("http://Jobs.Example:9090").origin()).isEqualTo("http://jobs.example:9090");
        assertThat(JobServerUrl.parse("http://0.0.0.0").origin()).isEqualTo("http://0.0.0.0:80");
        assertThat(JobServerUrl.parse("http://255.255.255.255").origin()).isEqualTo("http://255.255.255.255:80");
        for (String other : List.of(
                "http://010.096.005.005",
                "http://174064901",
                "http://10.96.1285",
                "http://1.2.3.4.5",
                "http://256.1.1.1",
                "http://1.2.3.04",
                "http://4294967296",
                "http://0")) {
            assertThatThrownBy(() -> JobServerUrl.parse(other))
                    .as("another spelling of an address, or none: %s", other)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(JobServerUrl.parse("http://123.example").hostIsName()).isTrue();
        assertThat(JobServerUrl.parse("http://10.96.5.5").hostIsName()).isFalse();
    }

    @Test
    void aRecordedAddressIsReadOnlyWhenWrittenAsOne() {
        assertThat(JobServerUrl.literal(JobServerUrl.address("10.0.0.5"))).isEqualTo("10.0.0.5");
        assertThat(JobServerUrl.literal(JobServerUrl.address("fd00::5"))).isEqualTo("fd00:0:0:0:0:0:0:5");
        for (String notOne : new String[] {"metadata.internal", "10.1", "167118085", "localhost", "", "::1%eth0"}) {
            Assertions.assertThatThrownBy(() -> JobServerUrl.address(notOne))
                    .as(notOne)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
