package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.kyma.operator.api.Labels;
import io.kyma.operator.common.cache.LeanCache;

/** The informer cache keeps exactly the labels the operator has keys for: a new key is kept as soon as it exists. */
class LeanLabelsTest {
    @Test
    void theLabelsTheCacheKeepsAreTheKeysOfTheApisLabels() throws IllegalAccessException {
        Set<String> keys = new HashSet<>();
        for (Field field : Labels.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && field.getType() == String.class
                    && !field.getName().endsWith("_VALUE")) {
                keys.add((String) field.get(null));
            }
        }
        assertThat(LeanCache.KEPT_LABELS)
                .as(Arrays.stream(Labels.class.getFields()).map(Field::getName).collect(Collectors.joining(", ")))
                .isEqualTo(keys);
    }
}
