package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.kyma.operator.common.status.FailureClass;

/** Which addresses a Run's calls may connect to. */
class ServerAddressesTest {
    private static final JobServerUrl JOBS = JobServerUrl.parse("http://jobs.example:9090");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.0.0.1",
                "127.8.9.10",
                "::1",
                "169.254.169.254",
                "fe80::1",
                "0.0.0.0",
                "::",
                "224.0.0.1",
                "fd00:ec2::254",
                "100.100.100.200",
                "::ffff:127.0.0.1"
            })
    void loopbackLinkLocalMetadataAndTheLikeAreDeniedEvenWhenEverythingIsAllowed(String address) throws Exception {
        ServerAddresses allowAll = new ServerAddresses(ServerAllowList.parse(""), Optional.empty(), Set.of());
        assertThat(allowAll.allows(JOBS, InetAddress.getByName(address))).isFalse();
        assertThat(ServerAllowList.parse("").allows(JobServerUrl.parse("http://" + bracketed(address) + ":9090")))
                .as("a literal is refused before any request")
                .isFalse();
    }

    @Test
    void theOperatorsAndTheApiServersAddressesAreDenied() throws Exception {
        InetAddress own = InetAddress.getByName("10.1.2.3");
        ServerAddresses addresses = new ServerAddresses(ServerAllowList.parse(""), Optional.empty(), Set.of(own));
        assertThat(addresses.allows(JOBS, own)).isFalse();
        assertThat(addresses.allows(JOBS, InetAddress.getByName("10.1.2.4"))).isTrue();
    }

    @Test
    void onlyAnAddressOrRangeInTheAllowListLiftsTheDenial() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        ServerAddresses byName =
                new ServerAddresses(ServerAllowList.parse("jobs.example,localhost"), Optional.empty(), Set.of());
        assertThat(byName.allows(JOBS, loopback))
                .as("a name that resolves to loopback")
                .isFalse();
        ServerAddresses byAddress =
                new ServerAddresses(ServerAllowList.parse("127.0.0.0/8"), Optional.empty(), Set.of(loopback));
        assertThat(byAddress.allows(JobServerUrl.parse("http://127.0.0.1:9090"), loopback))
                .isTrue();
    }

    @Test
    void aNameIsCheckedByEveryAddressItResolvesToAndTheDefaultServerIsNot() throws Exception {
        ServerAddresses addresses = new ServerAddresses(
                ServerAllowList.parse(""), Optional.of(JobServerUrl.parse("http://localhost:9090")), Set.of());
        assertThat(addresses.check(JobServerUrl.parse("http://localhost:9090")))
                .as("the administrator's own")
                .isEmpty();
        assertThatThrownBy(() -> addresses.check(JobServerUrl.parse("http://localhost:9091")))
                .isInstanceOfSatisfying(RemoteJobException.class, e -> {
                    assertThat(e.kind()).isEqualTo(RemoteJobException.Kind.NOT_ALLOWED);
                    assertThat(e.reason()).isEqualTo("ServerNotAllowed");
                    assertThat(e.failureClass()).isNotEqualTo(FailureClass.RETRY);
                });
        assertThatThrownBy(() -> addresses.check(JobServerUrl.parse("http://no-such-host.invalid:9090")))
                .isInstanceOfSatisfying(
                        RemoteJobException.class,
                        e -> assertThat(e.getMessage()).isEqualTo(RemoteJobClient.UNREACHABLE));
    }

    @Test
    void aPinnedUrlKeepsPortAndPathAndBracketsV6() throws UnknownHostException {
        JobServerUrl server = JobServerUrl.parse("http://jobs.example:9090/api%20v1");
        assertThat(server.at(InetAddress.getByName("10.0.0.7"))).hasToString("http://10.0.0.7:9090/api%20v1");
        assertThat(server.at(InetAddress.getByName("fd00::7")))
                .hasToString("http://[fd00:0:0:0:0:0:0:7]:9090/api%20v1");
        assertThat(server.authority()).isEqualTo("jobs.example:9090");
    }

    private static String bracketed(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }

    @Test
    void onlyANameWaitsForANameServer() {
        ServerAddresses addresses = new ServerAddresses(
                ServerAllowList.parse(""),
                Optional.of(JobServerUrl.parse("http://jobs.default:9090")),
                java.util.Set.of());
        assertThat(addresses.looksUp(JobServerUrl.parse("http://jobs.default:9090")))
                .as("the default")
                .isFalse();
        assertThat(addresses.looksUp(JobServerUrl.parse("http://10.1.2.3:9090")))
                .isFalse();
        assertThat(addresses.looksUp(JobServerUrl.parse("http://[fd00::1]:9090")))
                .isFalse();
        assertThat(addresses.looksUp(JobServerUrl.parse("http://jobs.team-a:9090")))
                .isTrue();
    }

    @Test
    void aPinnedAddressIsCheckedAgainWithoutALookUp() throws Exception {
        ServerAddresses addresses = new ServerAddresses(ServerAllowList.parse(""), Optional.empty(), Set.of(), host -> {
            throw new AssertionError("looked up " + host);
        });
        JobServerUrl pinned = JOBS.pinnedTo(InetAddress.getByName("10.0.0.5"));
        assertThat(addresses.looksUp(pinned)).isFalse();
        assertThat(addresses.check(pinned)).contains(InetAddress.getByName("10.0.0.5"));
        JobServerUrl metadata = JOBS.pinnedTo(InetAddress.getByName("169.254.169.254"));
        assertThatThrownBy(() -> addresses.check(metadata))
                .isInstanceOfSatisfying(
                        RemoteJobException.class,
                        e -> assertThat(e.kind()).isEqualTo(RemoteJobException.Kind.NOT_ALLOWED));
    }
}
