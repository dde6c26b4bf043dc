package dev.logrouter.core.template;

import static org.assertj.core.api.Assertions.assertThat;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.Tags;

import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The macros added with the template functions: {@code ${TAGS}}, {@code ${TAG}}, {@code ${BSDTAG}},
 * {@code ${LOGHOST}} and the calendar macros ({@code ${YEAR_DAY}}, {@code ${WEEK}}, {@code ${ISOWEEK}},
 * {@code ${WEEK_DAY}}, {@code ${WEEK_DAY_NAME}}, {@code ${HOUR12}}, {@code ${AMPM}}, {@code ${MONTH_WEEK}}),
 * on events parsed from real lines; calendar values are checked against {@code java.time} over several
 * year boundaries.
 */
class TagAndCalendarMacrosTest {

    private static String render(String template, LogEvent e) {
        ByteBuilder out = new ByteBuilder(16);
        Template.compile(template, ZoneOffset.UTC).render(e, out);
        return out.toString();
    }

    @Test
    void tagsAreCommaSeparatedInTheOrderAdded() {
        LogEvent e = FormatJsonTest.bsd("<34>Oct 11 22:14:15 mymachine su[123]: 'su root' failed");
        assertThat(render("[${TAGS}]", e)).isEqualTo("[]");
        e.addTag(Tags.id("first"));
        assertThat(render("${TAGS}", e)).isEqualTo("first");
        e.addTag(Tags.id(".parse.json.failed"));
        e.addTag(Tags.id("third"));
        assertThat(render("${TAGS}", e)).isEqualTo("first,.parse.json.failed,third");
        e.removeTag(Tags.id(".parse.json.failed"));
        assertThat(render("$TAGS", e)).isEqualTo("first,third");
        ByteBuilder path = new ByteBuilder(16);
        e.addTag(Tags.id("a/b"));
        Template.compile("t/${TAGS}", ZoneOffset.UTC).render(e, path, PathValueEscaper.INSTANCE);
        assertThat(path.toString()).isEqualTo("t/first,third,a_b");
    }

    @Test
    void tagAndBsdtagEncodeThePri() {
        LogEvent auth = FormatJsonTest.bsd("<34>Oct 11 22:14:15 mymachine su[123]: x");
        assertThat(render("${TAG} ${BSDTAG}", auth)).isEqualTo("22 2E"); // auth(4).crit(2): 0x22; 'A'+4
        LogEvent local4 = FormatJsonTest.ietf("<165>1 2003-10-11T22:14:15Z h app - - - x");
        assertThat(render("${TAG} ${BSDTAG}", local4)).isEqualTo("a5 5U"); // local4(20).notice(5): 0xa5; 'A'+20
        LogEvent kern = FormatJsonTest.ietf("<0>1 2003-10-11T22:14:15Z h app - - - x");
        assertThat(render("${TAG} ${BSDTAG}", kern)).isEqualTo("00 0A");
    }

    @Test
    void loghostIsThisMachinesShortName() {
        LogEvent e = FormatJsonTest.bsd("<34>Oct 11 22:14:15 mymachine su[123]: x");
        String h = render("${LOGHOST}", e);
        assertThat(h).isNotEmpty().isEqualTo(new String(LocalHostName.get(), StandardCharsets.UTF_8));
        if (!h.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ':')) {
            assertThat(h).doesNotContain(".");
        }
    }

    @Test
    void calendarMacrosAgreeWithJavaTimeAcrossYearBoundaries() {
        int[] years = {2003, 2004, 2015, 2020, 2021, 2026, 2027, 2032};
        for (int year : years) {
            for (LocalDate d = LocalDate.of(year - 1, 12, 20); d.isBefore(LocalDate.of(year, 1, 12));
                    d = d.plusDays(1)) {
                check(d, 7);
            }
            for (LocalDate d = LocalDate.of(year, 2, 24); d.isBefore(LocalDate.of(year, 3, 3)); d = d.plusDays(1)) {
                check(d, 0);
            }
            check(LocalDate.of(year, 7, 1), 12);
            check(LocalDate.of(year, 9, 30), 23);
        }
    }

    private static void check(LocalDate d, int hour) {
        String line = "<13>1 " + d + "T" + (hour < 10 ? "0" : "") + hour + ":30:00Z host app - - - x";
        LogEvent e = FormatJsonTest.ietf(line);
        String got = render("${YEAR_DAY} ${WEEK} ${ISOWEEK} ${WEEK_DAY} ${WEEK_DAY_NAME} ${HOUR12} ${AMPM} "
                + "${S_ISOWEEK}", e);
        int isoWeek = d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
        int mondays = 0; // strftime %W: Mondays so far this year (days before the first Monday are week 0)
        for (LocalDate x = LocalDate.of(d.getYear(), 1, 1); !x.isAfter(d); x = x.plusDays(1)) {
            if (x.getDayOfWeek() == DayOfWeek.MONDAY) {
                mondays++;
            }
        }
        int weekDay = d.getDayOfWeek().getValue() % 7 + 1; // 1 = Sunday
        int h12 = hour % 12 == 0 ? 12 : hour % 12;
        String expected = String.format("%03d %02d %02d %d %s %02d %s %02d", d.getDayOfYear(), mondays, isoWeek,
                weekDay, d.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH), h12, hour < 12 ? "AM" : "PM",
                isoWeek);
        assertThat(got).as(line).isEqualTo(expected);
    }

    @Test
    void monthWeekAsSyslogNgCountsIt() {
        // syslog-ng: mday / 7 + (1 when it is not Sunday and mday % 7 >= weekday)
        assertThat(render("${MONTH_WEEK}", FormatJsonTest.ietf("<13>1 2026-11-22T00:00:00Z h a - - - x")))
                .isEqualTo("3"); // Sunday the 22nd
        assertThat(render("${MONTH_WEEK}", FormatJsonTest.ietf("<13>1 2026-11-02T00:00:00Z h a - - - x")))
                .isEqualTo("1"); // Monday the 2nd
        assertThat(render("${MONTH_WEEK}", FormatJsonTest.ietf("<13>1 2026-11-07T00:00:00Z h a - - - x")))
                .isEqualTo("1"); // Saturday the 7th
        assertThat(render("${MONTH_WEEK}", FormatJsonTest.ietf("<13>1 2026-11-01T00:00:00Z h a - - - x")))
                .isEqualTo("0"); // Sunday the 1st
    }

    @Test
    void receiveTimeVariantsUseTheReceiveTime() {
        LogEvent e = FormatJsonTest.ietf("<13>1 2003-10-11T22:14:15Z h app - - - x");
        // received 2026-11-22T06:14:00Z: a Sunday, day 326, ISO week 47
        assertThat(render("${R_YEAR_DAY} ${R_ISOWEEK} ${R_WEEK_DAY_NAME} ${R_HOUR12}${R_AMPM}", e))
                .isEqualTo("326 47 Sunday 06AM");
    }
}
