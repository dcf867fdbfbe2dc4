package io.kyma.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.CustomResource;

/** Instances of a kind share their singular and plural instead of each computing its own strings. */
class SharedNamesTest {
    @Test
    void everyInstanceHoldsTheSameSingularAndPluralStrings() {
        for (Supplier<CustomResource<?, ?>> kind :
                List.<Supplier<CustomResource<?, ?>>>of(Kyma::new, HelmComponent::new, Run::new)) {
            CustomResource<?, ?> one = kind.get();
            CustomResource<?, ?> other = kind.get();
            assertThat(other.getSingular())
                    .isEqualTo(one.getKind().toLowerCase())
                    .isSameAs(one.getSingular());
            assertThat(other.getPlural()).isEqualTo(one.getSingular() + "s").isSameAs(one.getPlural());
        }
    }
}
