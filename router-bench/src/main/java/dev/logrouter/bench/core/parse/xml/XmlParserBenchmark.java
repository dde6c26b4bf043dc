package dev.logrouter.bench.core.parse.xml;

import dev.logrouter.bench.core.parse.ParserBenchmark;
import dev.logrouter.core.parse.xml.XmlParserConfig;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Throughput (messages/s) of the {@code xml} parser on one ~400-byte XML message per shape, as a parse worker
 * runs it: the syslog header is parsed once in setup, and each operation clears the event's field table and
 * parses MSG into it. Shapes: {@code winevent} (a Windows-event-like document: nesting and attributes),
 * {@code flat} (one level of elements, no attributes), {@code attributes} (few elements, many attributes).
 * Setup checks the field count, so a failing parse is never what is measured.
 */
public class XmlParserBenchmark extends ParserBenchmark {

    static final String WINEVENT = "<Event><System><Provider Name=\"Microsoft-Windows-Security-Auditing\"/>"
            + "<EventID>4625</EventID><Level>0</Level><TimeCreated SystemTime=\"2024-05-01T12:34:56.789Z\"/>"
            + "<Computer>dc01.corp.example.com</Computer></System><EventData><Data Name=\"TargetUserName\">jdoe"
            + "</Data><Data Name=\"IpAddress\">10.20.30.40</Data><Data Name=\"IpPort\">51234</Data>"
            + "<Data Name=\"Status\">0xC000006D</Data></EventData></Event>";
    static final String FLAT = "<log><ts>2024-05-01T12:34:56.789Z</ts><host>web-07.prod.example.com</host>"
            + "<app>checkout</app><level>WARN</level><thread>http-nio-8080-exec-17</thread>"
            + "<logger>com.example.shop.CheckoutService</logger><user>customer-918273</user>"
            + "<order>ORD-2024-0501-77812</order><latency_ms>1834</latency_ms>"
            + "<msg>payment provider answered slowly, retrying with backup route</msg></log>";
    static final String ATTRIBUTES = "<req method=\"POST\" path=\"/api/v2/orders/77812/items\" status=\"502\" "
            + "bytes=\"5123\" duration=\"1.834\" client=\"203.0.113.7\" proto=\"HTTP/1.1\"><ua family=\"Firefox\" "
            + "version=\"125.0\" os=\"Linux\" device=\"desktop\"/><upstream host=\"10.1.2.3\" port=\"8443\" "
            + "tries=\"3\" cache=\"MISS\"/><trace id=\"4bf92f3577b34da6a3ce929d0e0e4736\" "
            + "span=\"00f067aa0ba902b7\"/></req>";

    @Param({"winevent", "flat", "attributes"})
    public String shape;

    @Setup
    public void setUp() {
        String doc = switch (shape) {
            case "winevent" -> WINEVENT;
            case "flat" -> FLAT;
            default -> ATTRIBUTES;
        };
        receive("dc01", doc);
        create(XmlParserConfig.defaults(), "xml");
        int expected = switch (shape) {
            case "winevent" -> 7; // the four <Data> concatenate into one field, as in syslog-ng
            case "flat" -> 10;
            default -> 17;
        };
        checkParsed(shape, expected);
    }
}
