package io.kyma.operator.manager;

import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;

/**
 * The log's level and format, set from the flags once at start-up. Text is logback.xml's pattern; JSON is logback's own
 * encoder, one object per line with the time, level, thread, logger, message, exception and the MDC: inside a
 * reconcile JOSDK's {@code resource.kind}, {@code resource.namespace}, {@code resource.name} (and the rest of the
 * object's identity) and this operator's {@code controller} and {@code reconcileID}.
 */
final class Logging {
    static final String APPENDER = "STDOUT";

    private Logging() {}

    static void configure(String level, String format) {
        var root = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        var ours = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.kyma.operator");
        Level parsed = Level.toLevel(level, Level.INFO);
        ours.setLevel(parsed);
        // Library chatter stays at info unless asked for more.
        root.setLevel(parsed.isGreaterOrEqual(Level.INFO) ? parsed : Level.DEBUG);
        if ("json".equals(format.toLowerCase(Locale.ROOT))
                && root.getAppender(APPENDER) instanceof ConsoleAppender<ILoggingEvent> console) {
            Encoder<ILoggingEvent> json = json((LoggerContext) LoggerFactory.getILoggerFactory());
            console.stop();
            console.setEncoder(json);
            console.start();
        }
    }

    /** logback's JSON encoder with what a log search needs, without logback's bookkeeping. */
    static JsonEncoder json(LoggerContext context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithContext(false);
        encoder.setWithMessage(false);
        encoder.setWithArguments(false);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        return encoder;
    }
}
