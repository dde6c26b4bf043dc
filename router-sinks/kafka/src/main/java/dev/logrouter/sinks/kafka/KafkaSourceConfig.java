package dev.logrouter.sinks.kafka;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.source.SyslogFormat;

import java.util.List;
import java.util.Map;

/**
 * {@code type: kafka} source: one consumer in a consumer group. Routers started with the same {@code group-id}
 * split the topics' partitions between them.
 *
 * <p>Threads: immutable.
 */
public record KafkaSourceConfig(
        @Option(doc = "Unique source name.", defaultValue = Option.REQUIRED)
        String name,
        @Option(doc = "Brokers to bootstrap from, host:port[,host:port...].", defaultValue = Option.REQUIRED)
        String bootstrapServers,
        @Option(doc = "Topics to read.", defaultValue = Option.REQUIRED)
        List<String> topics,
        @Option(doc = "Consumer group: every router with this group id gets a share of the partitions.",
                defaultValue = Option.REQUIRED)
        String groupId,
        @Option(doc = "What a record's value is: json (the object a kafka sink writes by default: the event comes "
                + "back with its header, stamp, tags and name-value pairs), auto (a syslog line, RFC 5424 or RFC "
                + "3164), rfc3164 or rfc5424.", defaultValue = "auto")
        SyslogFormat format,
        @Option(doc = "Where a group without committed offsets starts: earliest (nothing already in the topic is "
                + "skipped) or latest.", defaultValue = "earliest")
        String startFrom,
        @Option(doc = "Longest record value taken; longer ones are cut to it and counted (truncated).",
                defaultValue = "64KiB")
        ByteSize maxMessageSize,
        @Option(doc = "Offsets whose records every selected sink has flushed are committed at most this often.",
                defaultValue = "1s")
        TimeSpan commitInterval,
        @Option(doc = "When partitions are taken away (rebalance), longest wait for the sinks to flush what was "
                + "read from them before their offsets are committed; what is not flushed by then is read again "
                + "by the partitions' next owner.", defaultValue = "30s")
        TimeSpan revokeTimeout,
        @Option(doc = "Any other consumer property, passed as is (e.g. security.protocol, sasl.*, ssl.*, "
                + "max.poll.records); wins over the options above, except enable.auto.commit (always false).",
                defaultValue = "{}")
        Map<String, String> properties) implements SourceConfig {


    public KafkaSourceConfig {
        if (topics != null && (topics.isEmpty() || topics.stream().anyMatch(t -> t == null || t.isBlank()))) {
            throw new IllegalArgumentException("topics must list at least one topic name");
        }
        if (groupId != null && groupId.isBlank()) {
            throw new IllegalArgumentException("group-id must not be empty");
        }
        if (startFrom != null && !startFrom.equals("earliest") && !startFrom.equals("latest")) {
            throw new IllegalArgumentException("start-from must be earliest or latest, got '" + startFrom + "'");
        }
        if (maxMessageSize != null && (maxMessageSize.bytes() < 64 || maxMessageSize.bytes() > 64L << 20)) {
            throw new IllegalArgumentException("max-message-size must be 64B..64MiB, got " + maxMessageSize);
        }
        if (bootstrapServers != null && bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap-servers must not be empty");
        }
    }

    /** Sources publish with no sinks: the parse workers set each event's sinks from the routes. */
    @Override
    public Source create(SourceContext ctx) {
        return new KafkaSource(this, ctx.ring(), ctx.completedSequence(), ctx.index(), 0L, ctx.metrics());
    }

    /** The hint its events carry: {@code format}'s. */
    @Override
    public byte formatHint() {
        return format == null ? LogEvent.FORMAT_AUTO : format.hint();
    }
}
