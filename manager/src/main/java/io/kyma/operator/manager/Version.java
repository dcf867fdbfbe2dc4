package io.kyma.operator.manager;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version and commit the build stamped into the jar; {@code unknown} where a build could not tell. */
public record Version(String version, String commit, boolean dirty) {
    static final String RESOURCE = "/kyma-operator-version.properties";

    public static Version current() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // unknown, as below
        }
        return new Version(
                known(p.getProperty("version")), known(p.getProperty("commit")), "true".equals(p.getProperty("dirty")));
    }

    /** A value the build did not fill in (no Git, no property) is unknown. */
    private static String known(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value;
    }

    /** What {@code --version} prints: {@code kyma-operator 0.1.0 (commit abc1234)}. */
    @Override
    public String toString() {
        return "kyma-operator " + version + " (commit " + commit + (dirty ? ", with uncommitted changes" : "") + ")";
    }
}
