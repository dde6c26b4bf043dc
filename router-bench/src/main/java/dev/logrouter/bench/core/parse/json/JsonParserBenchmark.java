package dev.logrouter.bench.core.parse.json;

import dev.logrouter.bench.core.parse.ParserBenchmark;
import dev.logrouter.core.parse.json.JsonParserConfig;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Throughput (messages/s on one thread) of the {@code json} parser on a ~400-byte JSON MSG per payload shape, as a
 * parse worker runs it after the syslog header parser.
 *
 * <p>The frame is received and its header parsed once in setup; each operation clears the event's field table
 * (what {@code LogEvent.clear()} does for it between messages) and parses the whole MSG into fields under
 * {@code .json.}. Setup checks that the payload parses into the expected number of fields, so a failure path is
 * never what is measured. Shapes:
 * <ul>
 *   <li>{@code app}: a line of the end-to-end harness's JSON payload: 12 fields (a two-member object, a
 *       two-string array, a 150-byte message);</li>
 *   <li>{@code flat}: an access-log record, 16 scalar members (strings, integers, a fraction, booleans, a null);</li>
 *   <li>{@code nested}: the same kind of data in objects three levels deep, an array of strings and an array of
 *       objects;</li>
 *   <li>{@code escapes}: string values with escaped quotes, backslashes, newlines and {@code \\u} escapes, and
 *       non-ASCII UTF-8.</li>
 * </ul>
 */
public class JsonParserBenchmark extends ParserBenchmark {

    static final String FLAT = "{\"ts\":\"2025-11-22T07:00:00.123Z\",\"level\":\"info\",\"service\":\"orders-api\","
            + "\"host\":\"web-17.prod.example.com\",\"method\":\"GET\",\"path\":\"/api/v1/orders/84412\","
            + "\"query\":\"expand=items,customer\",\"status\":200,\"bytes\":15324,\"duration_ms\":42.7,"
            + "\"user\":\"alice\",\"client\":\"10.20.30.40\",\"ua\":\"curl/8.5.0\",\"cached\":false,"
            + "\"retry\":null,\"trace\":\"4bf92f3577b34da6a3ce929d0e0e4736\"}";
    static final String NESTED = "{\"ts\":\"2025-11-22T07:00:00.123Z\",\"level\":\"warn\","
            + "\"http\":{\"request\":{\"method\":\"POST\",\"path\":\"/api/v1/orders\",\"bytes\":512},"
            + "\"response\":{\"status\":503,\"bytes\":87}},\"user\":{\"id\":7741,\"name\":\"alice\","
            + "\"roles\":[\"admin\",\"ops\"]},\"upstreams\":[{\"host\":\"10.0.0.11\",\"ms\":12},"
            + "{\"host\":\"10.0.0.12\",\"ms\":3001}],\"trace\":{\"id\":\"4bf92f3577b34da6a3ce929d0e0e4736\","
            + "\"span\":\"00f067aa0ba902b7\",\"sampled\":true}}";
    static final String ESCAPES = "{\"ts\":\"2025-11-22T07:00:00.123Z\",\"level\":\"error\","
            + "\"msg\":\"query failed: \\\"SELECT * FROM orders WHERE note = 'x'\\\"\\nretrying\","
            + "\"path\":\"C:\\\\Program Files\\\\App\\\\bin\\\\app.exe\",\"user\":\"J\\u00fcrgen M\u00fcller\","
            + "\"city\":\"S\u00e3o Paulo\",\"emoji\":\"ok \\ud83d\\ude00\",\"tab\":\"a\\tb\\tc\","
            + "\"stack\":\"at Orders.load(Orders.java:42)\\n\\tat Main.run(Main.java:7)\",\"code\":-1}";

    /** A line of the e2e harness's JSON payload (399-byte frame): 12 fields, one nested object, one array. */
    static final String APP = "{\"ts\":\"2026-11-22T06:00:00.000Z\",\"user\":\"oscar\",\"action\":\"read\",\"status\""
            + ":200,\"bytes\":555857,\"duration_ms\":358.4,\"src\":{\"ip\":\"192.0.2.5\",\"port\":1"
            + "3291},\"req_id\":\"bf5a4cfdea036c67\",\"tags\":[\"web\",\"prod\"],\"msg\":\"do eiusmo"
            + "d aliquip ipsum enim laboris enim ipsum eiusmod ad quis enim et veniam n"
            + "ostrud dolore ipsum enim et veniam sit dolore aliqua magna ex amet ven\"}";

    @Param({"app", "flat", "nested", "escapes"})
    public String shape;

    @Setup
    public void setUp() {
        String json = switch (shape) {
            case "flat" -> FLAT;
            case "nested" -> NESTED;
            case "escapes" -> ESCAPES;
            case "app" -> APP;
            default -> throw new IllegalArgumentException("unknown shape " + shape + " (app, flat, nested, escapes)");
        };
        receive("host1.example.com", json);
        create(new JsonParserConfig(null, ".json.", "${MSG}", null, ".", 64, 65536), "json");
        int expected = switch (shape) {
            case "flat" -> 15;
            case "nested" -> 18;
            case "app" -> 12;
            default -> 10;
        };
        checkParsed(shape, expected);
    }
}
