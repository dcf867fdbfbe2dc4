package io.kyma.operator.flags;

/** A flag's value, or a combination of values, that cannot be used; the message names the flag. */
public class FlagException extends IllegalArgumentException {
    public FlagException(String message) {
        super(message);
    }
}
