package io.kyma.operator.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What the benchmark measures of the operator: one process ({@link OperatorProcess}), or the replicas of a sharded
 * operator taken together ({@link Replicas}), where counters, memory and CPU are the sums over the replicas.
 */
interface OperatorUnderTest extends AutoCloseable {
    /** The metrics; for replicas, every replica's samples together, so sums over them are fleet totals. */
    PromText scrape() throws IOException, InterruptedException;

    /** The process whose sockets the bench samples for unread bytes. */
    long pid();

    double rssMiB();

    double settledRssMiB() throws InterruptedException;

    double peakRssMiB();

    double cpuSeconds();

    double heapAfterFullGc() throws IOException, InterruptedException;

    OperatorProcess.LiveHeap liveHeap(int lines) throws IOException, InterruptedException;

    String nativeMemory() throws IOException, InterruptedException;

    void heapDump(Path file) throws IOException, InterruptedException;

    void startRecording() throws IOException, InterruptedException;

    JfrProfile stopRecording(Path file) throws IOException, InterruptedException;

    List<WatchCloses.Pause> pauses();

    /** The files the operator's JVMs log their collections to. */
    List<Path> gcLogs();

    @Override
    void close() throws InterruptedException;
}
