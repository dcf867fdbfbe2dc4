package io.kyma.operator.common.events;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Tells users what happened to an object, as Kubernetes Events that {@code kubectl describe} shows. Best effort: a
 * call never blocks, never throws, and an event that cannot be sent is dropped and counted, never retried for ever.
 */
public interface Events {
    /** Drops every event: for tests and tools that have no cluster to tell. */
    Events NONE = (object, type, reason, message) -> {};

    /** An event's type, as the API spells it. */
    enum Type {
        NORMAL("Normal"),
        WARNING("Warning");

        private final String text;

        Type(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /**
     * @param reason a short UpperCamelCase word chosen by the code, never by a tenant
     * @param message what a user should know, in a sentence; cut to {@link EventRecorder#MESSAGE_MAX} characters
     */
    void record(HasMetadata object, Type type, String reason, String message);

    default void normal(HasMetadata object, String reason, String message) {
        record(object, Type.NORMAL, reason, message);
    }

    default void warning(HasMetadata object, String reason, String message) {
        record(object, Type.WARNING, reason, message);
    }
}
