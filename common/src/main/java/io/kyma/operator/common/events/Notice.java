package io.kyma.operator.common.events;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** What an event says: its type, its reason and its message. */
public record Notice(Events.Type type, String reason, String message) {
    public static Notice normal(String reason, String message) {
        return new Notice(Events.Type.NORMAL, reason, message);
    }

    public static Notice warning(String reason, String message) {
        return new Notice(Events.Type.WARNING, reason, message);
    }

    /** Tells {@code events} about {@code object}. */
    public void tell(Events events, HasMetadata object) {
        events.record(object, type, reason, message);
    }
}
