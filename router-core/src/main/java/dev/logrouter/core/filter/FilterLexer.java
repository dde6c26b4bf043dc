package dev.logrouter.core.filter;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a filter expression into tokens the way syslog-ng's configuration lexer does: commas and whitespace
 * separate, {@code #} starts a comment to the end of the line, {@code "..."} strings take backslash escapes
 * ({@code \n \t \r \a \v \xHH \oOOO}; any other escaped character stands for itself, so {@code "\\d"} is
 * {@code \d}), {@code '...'} strings are taken literally (no escapes), {@code ..} is the range operator, and a
 * word is a run of anything else (so {@code ==}, {@code !=}, {@code <=} and {@code solaris-cron} are words).
 *
 * <p>Threads: used once per compilation, on the configuring thread.
 */
final class FilterLexer {

    enum Kind { WORD, STRING, LPAREN, RPAREN, DOTDOT, SEMICOLON, END }

    /**
     * One token. {@code column} is 1-based; {@code text} is the word or the decoded string; {@code contentColumn}
     * is the column of the first character inside the quotes of a string.
     */
    record Token(Kind kind, String text, int column, int contentColumn) {

        boolean isWord(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }

        String describe() {
            switch (kind) {
                case WORD:
                    return "'" + text + "'";
                case STRING:
                    return "string \"" + text + "\"";
                case LPAREN:
                    return "'('";
                case RPAREN:
                    return "')'";
                case DOTDOT:
                    return "'..'";
                case SEMICOLON:
                    return "';'";
                default:
                    return "the end of the expression";
            }
        }
    }

    private FilterLexer() {
    }

    static List<Token> tokenize(String text) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',') {
                i++;
            } else if (c == '#') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '(') {
                out.add(new Token(Kind.LPAREN, "(", i + 1, 0));
                i++;
            } else if (c == ')') {
                out.add(new Token(Kind.RPAREN, ")", i + 1, 0));
                i++;
            } else if (c == ';') {
                out.add(new Token(Kind.SEMICOLON, ";", i + 1, 0));
                i++;
            } else if (c == '.') {
                if (i + 1 < n && text.charAt(i + 1) == '.') {
                    out.add(new Token(Kind.DOTDOT, "..", i + 1, 0));
                    i += 2;
                } else {
                    throw FilterExpression.error(i + 1, "unexpected '.'", "write a range as 'info..emerg'");
                }
            } else if (c == '"') {
                i = doubleQuoted(text, i, out);
            } else if (c == '\'') {
                int end = text.indexOf('\'', i + 1);
                if (end < 0) {
                    throw FilterExpression.error(i + 1, "unterminated string", "add the closing '");
                }
                out.add(new Token(Kind.STRING, text.substring(i + 1, end), i + 1, i + 2));
                i = end + 1;
            } else if (isWordChar(c)) {
                int start = i;
                while (i < n) {
                    if (isWordChar(text.charAt(i))) {
                        i++;
                    } else if (text.charAt(i) == '.' && i + 1 < n && isWordChar(text.charAt(i + 1)) && i > start) {
                        i++;
                    } else {
                        break;
                    }
                }
                out.add(new Token(Kind.WORD, text.substring(start, i), start + 1, 0));
            } else {
                throw FilterExpression.error(i + 1, "unexpected character '" + c + "'",
                        "quote values that contain it, e.g. message(\"a" + c + "b\")");
            }
        }
        out.add(new Token(Kind.END, "", n + 1, 0));
        return out;
    }

    private static int doubleQuoted(String text, int open, List<Token> out) {
        StringBuilder sb = new StringBuilder();
        int i = open + 1;
        int n = text.length();
        while (true) {
            if (i >= n) {
                throw FilterExpression.error(open + 1, "unterminated string", "add the closing \"");
            }
            char c = text.charAt(i);
            if (c == '"') {
                break;
            }
            if (c != '\\' || i + 1 >= n) {
                sb.append(c);
                i++;
                continue;
            }
            char e = text.charAt(i + 1);
            i += 2;
            switch (e) {
                case 'a':
                    sb.append('\007');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case 't':
                    sb.append('\t');
                    break;
                case 'v':
                    sb.append('\013');
                    break;
                case '\n':
                    break; // line continuation
                case 'x':
                    i = numericEscape(text, i, 16, 2, sb, 'x');
                    break;
                case 'o':
                    i = numericEscape(text, i, 8, 3, sb, 'o');
                    break;
                default:
                    sb.append(e);
            }
        }
        out.add(new Token(Kind.STRING, sb.toString(), open + 1, open + 2));
        return i + 1;
    }

    private static int numericEscape(String text, int i, int radix, int max, StringBuilder sb, char letter) {
        int v = 0;
        int digits = 0;
        while (digits < max && i < text.length() && Character.digit(text.charAt(i), radix) >= 0) {
            v = v * radix + Character.digit(text.charAt(i), radix);
            i++;
            digits++;
        }
        if (digits == 0) {
            sb.append(letter); // like syslog-ng: an escape that is not a number stands for its letter
        } else {
            sb.append((char) (v & 0xFF));
        }
        return i;
    }

    /** Word characters: anything but whitespace, quotes, brackets and {@code # \ ; , | . @ :}. */
    static boolean isWordChar(char c) {
        switch (c) {
            case ' ': case '\t': case '\r': case '\n': case '#': case '\'': case '"': case '(': case ')':
            case '{': case '}': case '[': case ']': case '\\': case ';': case ',': case '|': case '.':
            case '@': case ':':
                return false;
            default:
                return true;
        }
    }
}
