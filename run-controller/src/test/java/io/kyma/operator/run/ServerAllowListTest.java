package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ServerAllowListTest {
    private final ServerAllowList list =
            ServerAllowList.parse(" jobs.example.com, *.jobs.internal ,10.0.0.0/8,fd00::/8 ,127.0.0.1");

    /** Names the patterns do not list may still pass by their addresses, when the list has ranges: see below. */
    @ParameterizedTest
    @CsvSource({
        "http://jobs.example.com,true",
        "http://JOBS.example.com:8080/api,true",
        "http://a.jobs.internal,true",
        "http://a.b.jobs.internal,true",
        "http://jobs.internal,true",
        "http://evil.example.com,true",
        "http://10.1.2.3:9090,true",
        "http://11.0.0.1,false",
        "http://[fd00::1],true",
        "http://[fe80::1],false",
        "http://127.0.0.1:1,true",
        "http://127.0.0.2:1,false"
    })
    void matchesNamesWildcardsAddressesAndRanges(String url, boolean allowed) {
        assertThat(list.allows(JobServerUrl.parse(url))).as(url).isEqualTo(allowed);
    }

    @Test
    void aNameIsRefusedAtOnceOnlyByAListWithoutRangesAndOtherwiseByItsAddressesAtEachCall() throws Exception {
        ServerAllowList names = ServerAllowList.parse("jobs.example.com, *.jobs.internal");
        assertThat(names.allows(JobServerUrl.parse("http://jobs.internal"))).isFalse();
        assertThat(names.allows(JobServerUrl.parse("http://evil.example.com"))).isFalse();
        ServerAddresses addresses = new ServerAddresses(list, Optional.empty(), Set.of());
        JobServerUrl evil = JobServerUrl.parse("http://evil.example.com");
        assertThat(addresses.allows(evil, InetAddress.getByName("11.0.0.1"))).isFalse();
        assertThat(addresses.allows(evil, InetAddress.getByName("10.9.9.9"))).isTrue();
    }

    @Test
    void anAddressIsNeverListedByANamePattern() {
        ServerAllowList names = ServerAllowList.parse("*.1, *.0.0.1, *.example");
        for (String url : List.of("http://10.0.0.1", "http://192.168.0.1", "http://[::1]", "http://[fd00::1]")) {
            assertThat(names.allows(JobServerUrl.parse(url))).as(url).isFalse();
        }
        assertThat(names.allows(JobServerUrl.parse("http://a.example"))).isTrue();
    }

    @Test
    void anEmptyListAllowsEverything() {
        assertThat(ServerAllowList.parse(" , ").allowsAll()).isTrue();
        assertThat(ServerAllowList.parse("").allows(JobServerUrl.parse("http://anything.example")))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jobs_example.com",
                "10.0.0.0/33",
                "10.0.0.0/x",
                "*.",
                "exa mple.com",
                "fd00::/129",
                "10/8",
                "010.0.0.0/8"
            })
    void rejectsPatternsItCannotMatchNamingThem(String pattern) {
        assertThatThrownBy(() -> ServerAllowList.parse("ok.example," + pattern))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(pattern.trim());
    }
}
