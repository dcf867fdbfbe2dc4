package io.kyma.operator.manager.queue;

/** Tasks for the queue's tests: they do nothing, and their name is what they print as. */
final class Tasks {
    private Tasks() {}

    static Runnable named(String name) {
        return new Runnable() {
            @Override
            public void run() {}

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
