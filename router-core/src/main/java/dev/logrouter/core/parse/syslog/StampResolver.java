package dev.logrouter.core.parse.syslog;

import dev.logrouter.core.event.CivilTime;
import dev.logrouter.core.event.LogEvent;

/**
 * Turns a scanned timestamp, or the receive time, into the event's stamp (epoch second, microseconds, offset, and
 * the number of fraction digits: as scanned, or 0 for the receive time, as syslog-ng's default
 * {@code frac-digits(0)} writes it).
 * Zone-less stamps are read in the receiver's zone; a missing year is guessed from the receive time the way
 * syslog-ng does: a December stamp received in January belongs to the previous year, a January stamp received in
 * December to the next one, anything else to the current year (all in the receiver's zone).
 *
 * <p>Threads: a parse worker thread; one instance per worker, not thread-safe.
 */
final class StampResolver {

    private final ReceiverZoneOffsets zone;
    private final int[] civil = new int[7];

    StampResolver(ReceiverZoneOffsets zone) {
        this.zone = zone;
    }

    /** Stamps the event with its receive time in the receiver's zone (no fraction digits of its own). */
    void setReceiveTime(LogEvent e) {
        long millis = e.receivedMillis();
        long second = Math.floorDiv(millis, 1000L);
        int micros = (int) Math.floorMod(millis, 1000L) * 1000;
        e.setStamp(second, micros, zone.atInstant(second), 0);
    }

    /** Stamps the event with what {@code ts} scanned. */
    void setScanned(LogEvent e, SyslogTimestampScanner ts) {
        long year = ts.hasYear ? ts.year : guessYear(e.receivedMillis(), ts.month);
        int monthIndex = ts.month - 1;
        year += Math.floorDiv(monthIndex, 12);
        int month = Math.floorMod(monthIndex, 12) + 1;
        long local = CivilTime.daysFromCivil(year, month, ts.day) * 86400L
                + ts.hour * 3600L + ts.minute * 60L + ts.second;
        int offset = ts.zoned ? ts.offsetSeconds : zone.atLocal(local);
        e.setStamp(local - offset, ts.micros, offset, ts.fracDigits);
    }

    private long guessYear(long receivedMillis, int month) {
        long now = Math.floorDiv(receivedMillis, 1000L);
        CivilTime.fields(now, zone.atInstant(now), civil);
        int nowYear = civil[0];
        int nowMonth = civil[1];
        if (month == 12 && nowMonth == 1) {
            return nowYear - 1L;
        }
        if (month == 1 && nowMonth == 12) {
            return nowYear + 1L;
        }
        return nowYear;
    }
}
