package io.kyma.operator.manager;

/** A configuration value that cannot be used; the message names the flag. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
