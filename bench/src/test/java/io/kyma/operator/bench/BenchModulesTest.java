package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Modules;

class BenchModulesTest {
    @Test
    void theLoadUsesTheEighteenModulesOfTheTests() {
        // The harness ships without the test fixtures, so it keeps its own copy; it must not drift from them.
        assertThat(Bench.MODULES).isEqualTo(Modules.EIGHTEEN);
    }
}
