package dev.logrouter.bench.core.parse.kv;

import dev.logrouter.bench.core.parse.ParserBenchmark;
import dev.logrouter.core.parse.kv.KvParserConfig;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Throughput (messages/s on one thread) of the {@code kv} parser on a ~400-byte MSG per payload shape, as a parse
 * worker runs it after the syslog header parser.
 *
 * <p>The frame is received and its header parsed once in setup; each operation clears the event's field table and
 * parses the whole MSG into fields under {@code .kv.}. Setup checks the number of fields each shape gives. Shapes:
 * <ul>
 *   <li>{@code app}: a line of the end-to-end harness's kv payload: 11 pairs, unquoted values and one long
 *       double-quoted message;</li>
 *   <li>{@code iptables}: a netfilter log line, unquoted values, bare words ({@code DF}, {@code SYN}) that the
 *       space heuristics keep in the value before them;</li>
 *   <li>{@code quoted}: a SonicWall-style line, several double-quoted values with spaces and escapes;</li>
 *   <li>{@code stray}: a Fortinet-style line with {@code ", "} pair separators, stray words collected into a
 *       field, and single-quoted values.</li>
 * </ul>
 */
public class KvParserBenchmark extends ParserBenchmark {

    static final String IPTABLES = "[UFW BLOCK] IN=eth0 OUT= MAC=a2:be:d2:ab:11:af:e2:f2:00:00:08:00 "
            + "SRC=192.168.2.115 DST=192.168.1.23 LEN=52 TOS=0x00 PREC=0x00 TTL=127 ID=9434 DF PROTO=TCP SPT=58428 "
            + "DPT=443 WINDOW=8192 RES=0x00 SYN URGP=0 MARK=0x1 PHYSIN=veth9f2a1b3 PHYSOUT=br-4c1d2e "
            + "UID=1000 GID=1000 ZONE=dmz-internal-web RULE=block-inbound-https-from-guest-vlan-20 "
            + "HOSTNAME=fw01.example.com LOGPREFIX=ufw-block-guest";
    static final String QUOTED = "id=firewall sn=C0EAE484E43E time=\"2025-11-22 07:00:00\" fw=132.237.143.192 "
            + "pri=5 c=4 m=16 msg=\"Web site access allowed\" app=11 sess=\"Auto\" n=5086 "
            + "usr=\"DEMO\\\\primarystudent\" src=10.2.3.64:50682:X2-V3023 dst=157.55.240.220:443:X1 "
            + "srcMac=00:50:56:8e:55:8e dstMac=c0:ea:e4:84:e4:40 proto=tcp/https "
            + "dstname=sls.update.microsoft.com arg= code=27 Category=\"Information Technology/Computers\" "
            + "note=\"said \\\"hi\\\"\" fw_action=\"process\"";
    static final String STRAY = "date=2025-11-22, time=07:00:00, devname='FGT60E', devid=FGT60E4Q16000000, "
            + "logid=0000000013, traffic forward, type=traffic, subtype=forward, level=notice, vd=root, "
            + "srcip=10.1.100.11, srcport=58012, srcintf='port2', dstip=172.16.200.55, dstport=443, "
            + "dstintf='port1', sessionid=12345678, proto=6, action=close, policyid=1, service=HTTPS, "
            + "dstcountry='United States', srccountry=Reserved, duration=12, sentbyte=1420, rcvdbyte=4310, "
            + "end of record";

    /** A line of the e2e harness's kv payload (399-byte frame): 11 pairs, the last a 200-byte quoted message. */
    static final String APP = "ts=2026-11-22T06:00:00.000Z user=trent action=delete status=200 bytes=32"
            + "8141 duration_ms=139.1 src_ip=203.0.113.229 src_port=42518 req_id=931668"
            + "9aeab0fb7e env=prod msg=\"do nisi ut ullamco amet ad nisi do exercitation"
            + " veniam enim et exercitation labore sit dolor ullamco incididunt aliquip"
            + " ea et dolore magna magna ad amet ex nisi do nisi dolore ex elit eiusmo\"";

    @Param({"app", "iptables", "quoted", "stray"})
    public String shape;

    @Setup
    public void setUp() {
        String kv = switch (shape) {
            case "iptables" -> IPTABLES;
            case "quoted" -> QUOTED;
            case "stray" -> STRAY;
            case "app" -> APP;
            default -> throw new IllegalArgumentException("unknown shape " + shape + " (app, iptables, quoted, stray)");
        };
        receive("fw01", kv);
        String stray = shape.equals("stray") ? ".kv.stray" : null;
        create(new KvParserConfig(null, ".kv.", "${MSG}", "=", ", ", stray), "kv");
        int expected = switch (shape) {
            case "iptables" -> 25;
            case "quoted" -> 23;
            case "app" -> 11;
            default -> 26; // 25 pairs and the stray words
        };
        checkParsed(shape, expected);
    }
}
