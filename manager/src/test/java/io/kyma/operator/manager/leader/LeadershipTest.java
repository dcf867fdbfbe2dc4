package io.kyma.operator.manager.leader;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.testing.HangCatcher;

class LeadershipTest {
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private static final class Time extends Clock {
        private Instant now = T0;

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aLeaderWhoseLeaseWentUnrenewedPastTheDeadlineExitsBeforeTheLeaseExpiresForOthers() {
        Time time = new Time();
        AtomicInteger exits = new AtomicInteger();
        Leadership leadership = new Leadership(exits::incrementAndGet, Leadership.DEFAULT_TIMING, time);
        leadership.started();
        leadership.renewed(T0.plusSeconds(2));

        time.now = T0.plusSeconds(12);
        leadership.checkRenewal();
        assertThat(exits).as("exactly at the deadline").hasValue(0);
        assertThat(leadership.leading()).isTrue();

        time.now = T0.plusSeconds(12).plusMillis(1);
        leadership.checkRenewal();
        assertThat(exits).hasValue(1);
        assertThat(leadership.leading()).isFalse();
        assertThat(leadership.stoppedAt()).contains(time.now);
        // the lease the others wait on runs 15 s from the renew time, 3 s after this replica stopped
        assertThat(leadership.stoppedAt().orElseThrow())
                .isBefore(T0.plusSeconds(2).plusSeconds(15));

        leadership.checkRenewal();
        assertThat(exits).as("steps down once").hasValue(1);
    }

    @Test
    void renewalsKeepTheLeaderAndAnOlderReportDoesNotMoveTheDeadlineBack() {
        Time time = new Time();
        AtomicInteger exits = new AtomicInteger();
        Leadership leadership = new Leadership(exits::incrementAndGet, Leadership.DEFAULT_TIMING, time);
        leadership.started();
        for (int s = 2; s <= 60; s += 2) {
            leadership.renewed(T0.plusSeconds(s));
            time.now = T0.plusSeconds(s + 1);
            leadership.checkRenewal();
        }
        leadership.renewed(T0.plusSeconds(1));
        time.now = T0.plusSeconds(69);
        leadership.checkRenewal();
        assertThat(exits).hasValue(0);
        assertThat(leadership.overdue(T0.plusSeconds(70).plusMillis(1))).isTrue();
    }

    @Test
    void followersAreNeverOverdueAndTheAcquiringMomentCountsUntilItsWriteIsReported() {
        Time time = new Time();
        AtomicInteger exits = new AtomicInteger();
        Leadership leadership = new Leadership(exits::incrementAndGet, Leadership.DEFAULT_TIMING, time);
        assertThat(leadership.overdue(T0.plusSeconds(3600))).isFalse();

        leadership.started();
        assertThat(leadership.overdue(T0.plus(Leadership.DEFAULT_TIMING.renewDeadline())))
                .isFalse();
        assertThat(leadership.overdue(
                        T0.plus(Leadership.DEFAULT_TIMING.renewDeadline()).plusMillis(1)))
                .isTrue();
    }

    @Test
    void withoutAnExitLosingTheLeaseOnlyStopsReconciling() throws InterruptedException {
        Time time = new Time();
        Leadership leadership = new Leadership((Runnable) null, Leadership.DEFAULT_TIMING, time);
        CountDownLatch stopped = new CountDownLatch(1);
        leadership.onLoss(stopped::countDown);
        leadership.started();
        time.now = T0.plusSeconds(11);
        leadership.checkRenewal();
        assertThat(stopped.await(HangCatcher.STEP.toSeconds(), TimeUnit.SECONDS))
                .as("on a thread of its own")
                .isTrue();
        assertThat(leadership.leading()).isFalse();
    }

    @Test
    void theRenewTimeIsReadFromTheLeaseAsFabric8WritesIt() {
        ZonedDateTime renew = ZonedDateTime.of(2026, 11, 22, 23, 2, 38, 123_456_000, ZoneOffset.UTC);
        String lease = Serialization.asJson(new LeaseBuilder()
                .withNewMetadata()
                .withName("kyma-operator-leader")
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("vm_1")
                .withLeaseDurationSeconds(15)
                .withAcquireTime(renew.minusMinutes(1))
                .withRenewTime(renew)
                .withLeaseTransitions(3)
                .endSpec()
                .build());

        assertThat(LeaseRenewals.renewTime(lease, "vm_1")).contains(renew.toInstant());
        assertThat(LeaseRenewals.renewTime(lease, "vm_2")).as("held by another").isEmpty();
        assertThat(LeaseRenewals.renewTime(lease.replace("2026-11-22T23:02:38", "yesterday"), "vm_1"))
                .isEmpty();
        assertThat(LeaseRenewals.renewTime("{}", "vm_1")).isEmpty();
        assertThat(LeaseRenewals.renewTime(null, "vm_1")).isEmpty();
    }

    @Test
    void onlyCreatesAndUpdatesOfLeasesCount() {
        String lease = "/apis/coordination.k8s.io/v1/namespaces/kyma-system/leases/kyma-operator-leader";
        assertThat(LeaseRenewals.leaseWrite("PATCH", lease))
                .as("fabric8's renewal")
                .isTrue();
        assertThat(LeaseRenewals.leaseWrite("PUT", lease)).isTrue();
        assertThat(LeaseRenewals.leaseWrite("POST", "/apis/coordination.k8s.io/v1/namespaces/kyma-system/leases"))
                .isTrue();
        assertThat(LeaseRenewals.leaseWrite("GET", lease)).isFalse();
        assertThat(LeaseRenewals.leaseWrite("PATCH", "/apis/operator.kyma-project.io/v1alpha1/namespaces/a/kymas/k"))
                .isFalse();
        assertThat(LeaseRenewals.leaseWrite("PUT", lease + "/status")).isFalse();
        assertThat(Duration.ofSeconds(10)).isEqualTo(Leadership.DEFAULT_TIMING.renewDeadline());
    }

    @Test
    void theFlagsDefaultToJosdksTiming() {
        assertThat(ManagerConfig.parse(new String[0], Map.of()).leader().timing())
                .isEqualTo(Leadership.DEFAULT_TIMING);
    }
}
