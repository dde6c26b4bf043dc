package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile or high-cardinality {@code TAGS} in Kafka envelopes cannot grow the process-wide tag registry without
 * end: message content registers at most {@link Tags#MAX_FROM_INPUT} names; later new names are dropped from their
 * events, counted, and the events tagged {@code .limit.max-tags}; known names and the configuration's own tags
 * keep working. Through the real {@link SyslogHeaderParser}.
 *
 * <p>The registry is global and this test fills its input share, so the build runs this class in a JVM of its
 * own (router-core's pom, execution {@code tag-registry}); the exact figures below hold there.
 */
class TagRegistryLimitTest {

    private final SyslogHeaderParser parser = new SyslogHeaderParser(ZoneOffset.UTC);
    private final LogEvent e = new LogEvent();

    private void parse(String tags) {
        e.clear();
        byte[] b = ("{\"HOST\":\"h\",\"PROGRAM\":\"app\",\"MESSAGE\":\"m\",\"TAGS\":\"" + tags + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        e.setRaw(b, 0, b.length);
        e.setSource(0, "k".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_JSON, 1L);
        e.setReceivedMillis(1_763_800_000_000L);
        parser.parse(e);
    }

    private String render(String template) {
        ByteBuilder out = new ByteBuilder(64);
        Template.compile(template, ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    @Test
    void messagesRegisterAtMostTheirShareOfTagsAndTheRestIsDroppedCountedAndTagged() {
        int configTag = Tags.id("from-config");
        int before = Tags.count();
        // 64 messages of 64 new names each: exactly the input share
        for (int m = 0; m < Tags.MAX_FROM_INPUT / 64; m++) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                names.add("flood-" + m + "-" + i);
            }
            parse(String.join(",", names));
            assertThat(e.tagCount()).isEqualTo(64);
            assertThat(e.hasTag(LogEvent.TAG_MAX_TAGS)).isFalse();
        }
        assertThat(Tags.count()).isEqualTo(before + Tags.MAX_FROM_INPUT);
        assertThat(Tags.refused()).isZero();

        parse("flood-0-0,one-too-many,from-config,flood-63-63");
        assertThat(render("${HOST} ${PROGRAM} ${MSG}")).as("the message itself is kept").isEqualTo("h app m");
        assertThat(render("${TAGS}")).isEqualTo("flood-0-0,from-config,flood-63-63,.limit.max-tags");
        assertThat(e.hasTag(configTag)).isTrue();
        assertThat(Tags.refused()).isEqualTo(1);
        assertThat(Tags.count()).as("nothing registered").isEqualTo(before + Tags.MAX_FROM_INPUT);

        parse("flood-0-0,one-too-many,from-config,flood-63-63"); // the parser's cache of the last TAGS value
        assertThat(render("${TAGS}")).isEqualTo("flood-0-0,from-config,flood-63-63,.limit.max-tags");
        assertThat(Tags.refused()).as("counted per event").isEqualTo(2);

        parse("a,b,c");
        assertThat(render("${TAGS}")).isEqualTo(".limit.max-tags");
        assertThat(Tags.refused()).isEqualTo(5);

        // a message that turns out not to be an envelope counts nothing: it is parsed as syslog
        e.clear();
        byte[] cut = "{\"TAGS\":\"x,y\",\"MESSAGE\":\"cut".getBytes(StandardCharsets.UTF_8);
        e.setRaw(cut, 0, cut.length);
        e.setSource(0, "k".getBytes(StandardCharsets.US_ASCII), LogEvent.FORMAT_JSON, 1L);
        e.setReceivedMillis(1_763_800_000_000L);
        parser.parse(e);
        assertThat(e.tagCount()).isZero();
        assertThat(Tags.refused()).isEqualTo(5);

        // the configuration keeps its share: a PatternDB reload or a new rewrite still registers its tags, and a name
        // it registers is kept from then on, also for the parser's cached TAGS value
        parse("a,b,c");
        assertThat(Tags.refused()).isEqualTo(8);
        Tags.id("b");
        parse("a,b,c");
        assertThat(render("${TAGS}")).isEqualTo("b,.limit.max-tags");
        assertThat(Tags.refused()).isEqualTo(10);

        // the whole registry is bounded too: the configuration cannot go past syslog-ng's limit either
        for (int i = Tags.count(); i < Tags.MAX; i++) {
            Tags.id("configured-" + i);
        }
        assertThat(Tags.count()).isEqualTo(Tags.MAX);
        assertThatThrownBy(() -> Tags.id("one-more")).isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot register tag 'one-more': 16384 distinct tags are registered already "
                        + "(syslog-ng's limit too)");
        assertThat(Tags.fromInput("one-more")).isEqualTo(-1);
        assertThat(Tags.fromInput("b")).as("known names still resolve").isEqualTo(Tags.id("b"));
    }
}
