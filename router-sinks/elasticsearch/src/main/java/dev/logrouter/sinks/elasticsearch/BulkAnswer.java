package dev.logrouter.sinks.elasticsearch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.InputStream;

/**
 * A bulk response, read with Jackson's streaming parser into what the delivery settles documents by: per item its
 * HTTP status, and for an item that failed its error as {@code type: reason (caused by type: reason)}. Items that
 * succeeded cost a status and nothing else (the request asks for {@code filter_path=items.*.status,items.*.error}).
 * Also reads the {@code {"error": …}} body of a request refused as a whole.
 *
 * <p>Threads: {@link #read} runs on the client's I/O thread that received the answer; the result is immutable and
 * handed to the delivery's thread through the request's future.
 *
 * <p>Allocation per answer: a {@code short} per item, and an array of errors only when an item has one.
 *
 * @param statuses the items' HTTP statuses, in request order
 * @param reasons  the items' errors (null where the item has none), or null when no item has one
 */
record BulkAnswer(short[] statuses, String[] reasons) {

    /** Items in the answer. */
    int size() {
        return statuses.length;
    }

    /** Item {@code i}'s HTTP status. */
    int status(int i) {
        return statuses[i];
    }

    /** Item {@code i}'s error, null when it has none. */
    String reason(int i) {
        return reasons == null ? null : reasons[i];
    }


    private static final JsonFactory JSON = new JsonFactory();

    /** Reads {@code {"items":[{"<op>":{"status":N,"error":{…}}}, …]}}; throws on anything else. */
    static BulkAnswer read(InputStream in, int expected) throws IOException {
        short[] status = new short[expected];
        String[] reasons = null;
        int n = 0;
        try (JsonParser p = JSON.createParser(in)) {
            expect(p.nextToken(), JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                if (!"items".equals(field) || v != JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.START_OBJECT) { // one item: {"create": {...}}
                    expect(p.nextToken(), JsonToken.FIELD_NAME);
                    expect(p.nextToken(), JsonToken.START_OBJECT);
                    int s = 0;
                    String reason = null;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String f = p.currentName();
                        p.nextToken();
                        if ("status".equals(f)) {
                            s = p.getIntValue();
                        } else if ("error".equals(f)) {
                            reason = error(p);
                        } else {
                            p.skipChildren();
                        }
                    }
                    expect(p.nextToken(), JsonToken.END_OBJECT);
                    if (n >= expected) {
                        throw new IOException("bulk response has more items than the " + expected + " documents sent");
                    }
                    status[n] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, s));
                    if (reason != null) {
                        if (reasons == null) {
                            reasons = new String[expected];
                        }
                        reasons[n] = reason;
                    }
                    n++;
                }
            }
        }
        if (n != expected) {
            throw new IOException("bulk response has " + n + " items for " + expected + " documents");
        }
        return new BulkAnswer(status, reasons);
    }

    /**
     * The error of a request refused as a whole, from its body {@code {"error":{…},"status":N}}, or null when the body
     * is not that.
     */
    static String requestError(InputStream in) {
        try (JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                if ("error".equals(f)) {
                    return p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : error(p);
                }
                p.skipChildren();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** At the start of an error object: {@code type: reason (caused by type: reason)}. */
    private static String error(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            String s = p.getValueAsString();
            p.skipChildren();
            return s;
        }
        String type = null;
        String reason = null;
        String causedBy = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            p.nextToken();
            switch (f) {
                case "type" -> type = p.getValueAsString();
                case "reason" -> reason = p.getValueAsString();
                case "caused_by" -> causedBy = error(p);
                default -> p.skipChildren();
            }
        }
        StringBuilder s = new StringBuilder().append(type).append(": ").append(reason);
        if (causedBy != null) {
            s.append(" (caused by ").append(causedBy).append(')');
        }
        return s.toString();
    }

    private static void expect(JsonToken got, JsonToken want) throws IOException {
        if (got != want) {
            throw new IOException("unexpected bulk response: " + got + " where " + want + " was expected");
        }
    }
}
