package dev.logrouter.bench.core.parse.csv;

import dev.logrouter.bench.core.parse.ParserBenchmark;
import dev.logrouter.core.parse.csv.CsvParserConfig;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.List;

/**
 * Throughput (messages/s) of the {@code csv} parser on one ~400-byte CSV message per shape, as a parse worker
 * runs it: the syslog header is parsed once in setup, and each operation clears the event's field table and
 * parses MSG into it. Shapes: {@code firewall} (46 short unquoted columns), {@code quoted} (12 columns, most
 * quoted, with doubled quotes in escape-double-char), {@code greedy} (6 columns and a greedy free-text tail).
 * Setup checks the field count, so a failing parse is never what is measured.
 */
public class CsvParserBenchmark extends ParserBenchmark {

    static final String FIREWALL = "2024/05/01 12:34:56,001801010101,TRAFFIC,end,2049,2024/05/01 12:34:56,"
            + "203.0.113.7,10.20.30.40,198.51.100.1,10.20.30.40,allow-web-inbound,,jdoe,web-browsing,vsys1,"
            + "untrust,trust,ethernet1/1,ethernet1/2,log-forwarding-default,2024/05/01 12:34:56,512332,1,52144,"
            + "443,52144,443,0x400019,tcp,allow,12583,5123,7460,33,2024/05/01 12:33:01,113,any,0,77812903,"
            + "0x0,United States,10.0.0.0-10.255.255.255,0,18,15,tcp-fin";
    static final String QUOTED = "\"2024-05-01T12:34:56.789Z\",\"web-07\",\"checkout\",\"WARN\",\"http-nio-8080-exec-17\","
            + "\"com.example.shop.CheckoutService\",\"customer-918273\",\"ORD-2024-0501-77812\",1834,"
            + "\"payment provider said \"\"slow down\"\", retrying with the backup route, attempt 2 of 3\","
            + "\"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0\",\"eu-west-1\"";
    static final String GREEDY = "2024-05-01T12:34:56.789Z web-07 checkout WARN 1834 customer-918273 payment "
            + "provider answered slowly (1834 ms), retrying with backup route; order ORD-2024-0501-77812, basket "
            + "of 7 items, total 182.40 EUR, session 4bf92f3577b34da6a3ce929d0e0e4736, client 203.0.113.7 "
            + "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0, attempt 2 of 3, "
            + "backoff 250 ms";

    @Param({"firewall", "quoted", "greedy"})
    public String shape;

    @Setup
    public void setUp() {
        CsvParserConfig cfg;
        String line;
        int expected;
        switch (shape) {
            case "firewall" -> {
                line = FIREWALL;
                expected = 46;
                cfg = CsvParserConfig.of(columns(expected));
            }
            case "quoted" -> {
                line = QUOTED;
                expected = 12;
                cfg = new CsvParserConfig(null, ".csv.", "${MSG}", columns(expected), ",", List.of(), "\"\"''",
                        "escape-double-char", List.of("strip-whitespace", "drop-invalid"), null);
            }
            default -> {
                line = GREEDY;
                expected = 7;
                cfg = new CsvParserConfig(null, ".csv.", "${MSG}", columns(expected), " ", List.of(), "\"\"''",
                        "escape-none", List.of("greedy"), null);
            }
        }
        receive("fw01", line);
        create(cfg, "csv");
        checkParsed(shape, expected);
    }

    private static List<String> columns(int n) {
        String[] c = new String[n];
        for (int i = 0; i < n; i++) {
            c[i] = "c" + i;
        }
        return List.of(c);
    }
}
