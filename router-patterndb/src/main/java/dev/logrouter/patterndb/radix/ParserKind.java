package dev.logrouter.patterndb.radix;

/**
 * The parser functions of a pattern ({@code @TYPE:name:param@}, spec 5). Aliases map to one kind
 * ({@code DOUBLE} is {@link #FLOAT}, {@code QSTRINGxyz} is {@link #QSTRING}), which matters for tree sharing:
 * parser nodes are shared when kind, value name and param are equal (spec 6.2).
 *
 * <p>Threads: immutable.
 */
public enum ParserKind {
    STRING, ESTRING, QSTRING, NUMBER, FLOAT, IPV4("IPv4"), IPV6("IPv6"), IPVANY("IPvANY"), MACADDR, LLADDR, EMAIL,
    HOSTNAME, ANYSTRING, NLSTRING, SET, OPTIONALSET, PCRE;

    private final String typeName;

    ParserKind() {
        this.typeName = null;
    }

    ParserKind(String typeName) {
        this.typeName = typeName;
    }

    /** The type as written in patterns and printed by {@code pdbtool dump}. */
    public String typeName() {
        return typeName != null ? typeName : name();
    }

    /**
     * The kind a pattern's TYPE names (case-sensitive; {@code DOUBLE} is FLOAT; any TYPE starting with
     * {@code QSTRING} is QSTRING, as in the reference), or null when it names none.
     */
    public static ParserKind forType(String type) {
        return switch (type) {
            case "STRING" -> STRING;
            case "ESTRING" -> ESTRING;
            case "NUMBER" -> NUMBER;
            case "FLOAT", "DOUBLE" -> FLOAT;
            case "IPv4" -> IPV4;
            case "IPv6" -> IPV6;
            case "IPvANY" -> IPVANY;
            case "MACADDR" -> MACADDR;
            case "LLADDR" -> LLADDR;
            case "EMAIL" -> EMAIL;
            case "HOSTNAME" -> HOSTNAME;
            case "ANYSTRING" -> ANYSTRING;
            case "NLSTRING" -> NLSTRING;
            case "SET" -> SET;
            case "OPTIONALSET" -> OPTIONALSET;
            case "PCRE" -> PCRE;
            default -> type.startsWith("QSTRING") ? QSTRING : null;
        };
    }
}
