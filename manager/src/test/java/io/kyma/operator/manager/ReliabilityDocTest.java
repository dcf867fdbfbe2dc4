package io.kyma.operator.manager;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.kyma.operator.testing.Crds;
import io.kyma.operator.testing.DocRegion;

/**
 * docs/reliability.md's table is {@link ReliabilityCases}, row for row, so that the document says exactly what
 * {@link ReliabilityIT} proves. {@code -Dreliability.write=true} rewrites the table from the cases.
 */
class ReliabilityDocTest {
    private static final String BEGIN = "<!-- rows: generated from ReliabilityCases -->\n";
    private static final String END = "<!-- end of rows -->\n";

    @Test
    void theDocumentsTableIsTheListOfCases() {
        DocRegion.check(Crds.repositoryRoot().resolve("docs/reliability.md"), BEGIN, END, table(), "reliability.write");
        assertThat(ReliabilityCases.ALL).hasSizeGreaterThanOrEqualTo(30);
    }

    @Test
    void everyRowProvenElsewhereNamesAnIntegrationTestThatExists() throws ClassNotFoundException {
        for (ReliabilityCases.Case c : ReliabilityCases.ALL) {
            String[] parts = c.test().split("#");
            assertThat(parts).as(c.test()).hasSize(2);
            assertThat(parts[0]).as(c.test()).endsWith("IT");
            Class<?> test = itClass(parts[0]);
            if (c.own()) {
                assertThat(test.getDeclaredMethods())
                        .as(c.test())
                        .anyMatch(m -> m.getName().equals(parts[1]) && m.getParameterCount() == 0);
            } else {
                assertThat(test.getDeclaredMethods())
                        .as(c.test())
                        .anyMatch(m -> m.getName().equals(parts[1]) && m.isAnnotationPresent(Test.class));
            }
        }
    }

    /** The IT of that simple name, in this package or one below it. */
    private Class<?> itClass(String simpleName) throws ClassNotFoundException {
        for (String pkg : new String[] {"", ".shard", ".chaos"}) {
            try {
                return Class.forName(getClass().getPackageName() + pkg + "." + simpleName);
            } catch (ClassNotFoundException e) {
                // the next package
            }
        }
        throw new ClassNotFoundException(simpleName);
    }

    private static String table() {
        StringBuilder out = new StringBuilder("| # | input | what a user sees | test |\n|---|---|---|---|\n");
        int n = 1;
        for (ReliabilityCases.Case c : ReliabilityCases.ALL) {
            out.append("| ")
                    .append(n++)
                    .append(" | ")
                    .append(c.input())
                    .append(" | ")
                    .append(c.outcome())
                    .append(" | `")
                    .append(c.test())
                    .append("` |\n");
        }
        return out.toString();
    }
}
