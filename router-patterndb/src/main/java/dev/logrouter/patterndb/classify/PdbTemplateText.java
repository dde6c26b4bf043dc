package dev.logrouter.patterndb.classify;

/**
 * Adapts the template text of a rule's {@code <value>} or {@code context-id} from syslog-ng's syntax to
 * router-core's {@link dev.logrouter.core.template.Template} for evaluation on the matching message alone (spec
 * 9.1): right after a {@code $NAME} / {@code ${NAME}} reference, {@code @@} is a literal {@code @}, and
 * {@code @N} selects the N-th message of the context — on a single message only {@code @0} (the message itself)
 * has a value, so {@code @N} with N ≥ 1 renders nothing (N read with the reference's multi-digit quirk 9,
 * {@code n += n * 10 + d}). Any other {@code @} stays literal. Text inside {@code $( )} is left as written.
 *
 * <p>Threads: stateless; used at load time.
 */
final class PdbTemplateText {

    private PdbTemplateText() {
    }

    static String forSingleMessage(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c != '$' || i + 1 >= n) {
                out.append(c);
                i++;
                continue;
            }
            char d = text.charAt(i + 1);
            int end;
            if (d == '$') {
                out.append("$$");
                i += 2;
                continue;
            } else if (d == '(') {
                end = closingParen(text, i + 2);
                out.append(text, i, end);
                i = end;
                continue;
            } else if (d == '{') {
                int close = text.indexOf('}', i + 2);
                end = close < 0 ? n : close + 1;
            } else {
                end = i + 1;
                while (end < n && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                    end++;
                }
            }
            String ref = text.substring(i, end);
            i = end;
            if (i < n && text.charAt(i) == '@') {
                if (i + 1 < n && text.charAt(i + 1) == '@') {
                    out.append(ref).append('@');
                    i += 2;
                    continue;
                }
                if (i + 1 < n && Character.isDigit(text.charAt(i + 1))) {
                    long msgRef = 0;
                    int j = i + 1;
                    while (j < n && Character.isDigit(text.charAt(j))) {
                        msgRef = Math.min(msgRef + msgRef * 10 + (text.charAt(j) - '0'), Integer.MAX_VALUE);
                        j++;
                    }
                    if (msgRef == 0) {
                        out.append(ref);
                    }
                    i = j;
                    continue;
                }
            }
            out.append(ref);
        }
        return out.toString();
    }

    /** Index just past the ')' closing a {@code $(} whose body starts at {@code from} (end of text if none). */
    private static int closingParen(String text, int from) {
        int depth = 1;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i + 1;
            }
        }
        return text.length();
    }
}
