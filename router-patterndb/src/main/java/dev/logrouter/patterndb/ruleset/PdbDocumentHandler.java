package dev.logrouter.patterndb.ruleset;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * The loader's state machine (spec 2.1-2.10): receives the elements and text runs of one ruleset file in
 * document order and builds the model, rejecting what syslog-ng 3.38's {@code pdb-load.c} rejects.
 *
 * <p>Rules it reproduces:
 * <ul>
 *   <li>each state allows exactly the children the reference allows; anything else is fatal
 *       ({@code Unexpected <X> tag, expected ...}, with the reference's wording first);</li>
 *   <li>{@code <rules>}, {@code <examples>}, {@code <test_values>}, {@code <actions>} are real states (their
 *       children are only allowed inside them), while {@code <patterns>}, {@code <urls>} (ruleset and rule)
 *       and {@code <tags>}, {@code <values>} (rule and action message) are transparent: inside them the
 *       parent's children are allowed, as in the reference;</li>
 *   <li>a text run is delivered for every gap between two pieces of markup inside the root, also an empty
 *       one ({@code <pattern></pattern>} is an empty pattern, {@code <pattern/>} is none; a comment splits
 *       a run in two). Text-bearing states take each run verbatim: {@code <pattern>} adds a pattern per run,
 *       {@code <tag>} a tag, {@code <value>} a value, {@code <test_message>} overwrites the message (the last
 *       run of the last {@code <test_message>} wins), {@code <test_value>} gives its first run the name (the
 *       reference's later runs would carry no name; we drop them). {@code <description>}, {@code <url>} and
 *       {@code <example>} ignore their text; everywhere else non-whitespace text is fatal;</li>
 *   <li>attribute parsing as in the reference: {@code name} first on {@code <value>}/{@code <test_value>},
 *       version bounds, required rule {@code id} and create-context {@code context-id}, scope, trigger,
 *       inherit-mode and inherit-properties keywords, {@code rate} with {@code atoi}, timeouts with
 *       {@code strtol(.., 0)}; unknown attributes are ignored.</li>
 * </ul>
 * Not checked here (the tree builder does it): joining rulesets by program name, pattern syntax, template
 * and filter compilation.
 *
 * <p>Threads: one instance per load, used by the loading thread only.
 */
final class PdbDocumentHandler {

    private enum State {
        INITIAL, PATTERNDB, RULESET, RULESET_URL, RULESET_DESCRIPTION, RULESET_PATTERN, RULES, RULE, RULE_URL,
        RULE_DESCRIPTION, RULE_PATTERN, EXAMPLES, EXAMPLE, TEST_MESSAGE, TEST_VALUES, TEST_VALUE, ACTIONS,
        ACTION, CREATE_CONTEXT, MESSAGE, VALUE, TAG
    }

    private record Frame(State state, String element) {
    }

    private static final String RULESET_CHILDREN =
            "a <ruleset> holds <pattern> (program names, also inside <patterns>), <rules>, <description>, <url>"
                    + " and <urls>";
    private static final String RULE_CHILDREN =
            "a <rule> holds <patterns>/<pattern>, <tags>/<tag>, <values>/<value>, <actions>, <examples>,"
                    + " <description> and <urls>/<url>";
    private static final String MESSAGE_CHILDREN = "a <message> holds <values>/<value> and <tags>/<tag>";

    private final String source;
    private final SourcePositions positions;
    private final List<String> warnings = new ArrayList<>();
    private final Deque<Frame> stack = new ArrayDeque<>();
    private State state = State.INITIAL;

    private int version;
    private String pubDate;
    private final List<RulesetDef> rulesets = new ArrayList<>();

    private RulesetBuilder ruleset;
    private RuleBuilder rule;
    private ExampleBuilder example;
    private ActionBuilder action;
    private MessageBuilder message;
    private String valueName;
    private String valueType;
    private String testValueName;
    private String testValueType;

    PdbDocumentHandler(String source, SourcePositions positions) {
        this.source = source;
        this.positions = positions;
    }

    /** The loaded file; call after the document ended without error. */
    PatternDbFile result() {
        return new PatternDbFile(source, version, pubDate, List.copyOf(rulesets), List.copyOf(warnings));
    }

    /**
     * An element starts. {@code offset} is where the reference reports it: after the {@code >} of the start
     * tag, or on the {@code >} of a self-closing tag.
     */
    void startElement(String name, String[] attrNames, String[] attrValues, int offset) throws PdbLoadException {
        switch (state) {
            case INITIAL -> startRoot(name, attrNames, attrValues, offset);
            case PATTERNDB -> {
                if (!name.equals("ruleset")) {
                    throw unexpected(name, offset, "a <ruleset>", "<patterndb> holds only <ruleset> elements");
                }
                ruleset = new RulesetBuilder(attr(attrNames, attrValues, "name"), attr(attrNames, attrValues, "id"),
                        positions.line(offset));
                push(State.RULESET, name);
            }
            case RULESET -> {
                switch (name) {
                    case "rules" -> push(State.RULES, name);
                    case "patterns", "urls" -> push(State.RULESET, name);
                    case "url" -> push(State.RULESET_URL, name);
                    case "pattern" -> push(State.RULESET_PATTERN, name);
                    case "description" -> push(State.RULESET_DESCRIPTION, name);
                    default -> throw unexpected(name, offset,
                            "a <rules>, <urls>, <url>, <description>, <patterns> or <pattern>", RULESET_CHILDREN
                                    + "; rule content (<tags>, <values>, <rule>...) goes inside <rules><rule>");
                }
            }
            case RULES -> {
                if (!name.equals("rule")) {
                    throw unexpected(name, offset, "a <rule>", "<rules> holds only <rule> elements");
                }
                startRule(attrNames, attrValues, offset);
                push(State.RULE, name);
            }
            case RULE -> {
                switch (name) {
                    case "patterns", "tags", "values", "urls" -> push(State.RULE, name);
                    case "pattern" -> push(State.RULE_PATTERN, name);
                    case "tag" -> push(State.TAG, name);
                    case "value" -> startValue(attrNames, attrValues, offset);
                    case "description" -> push(State.RULE_DESCRIPTION, name);
                    case "url" -> push(State.RULE_URL, name);
                    case "actions" -> push(State.ACTIONS, name);
                    case "examples" -> push(State.EXAMPLES, name);
                    default -> throw unexpected(name, offset,
                            "a <patterns>, <pattern>, <tags>, <tag> or <actions>", RULE_CHILDREN
                                    + " (<example> and <action> only inside <examples> and <actions>)");
                }
            }
            case EXAMPLES -> {
                if (!name.equals("example")) {
                    throw unexpected(name, offset, "a <example>", "<examples> holds only <example> elements");
                }
                example = new ExampleBuilder(positions.line(offset));
                push(State.EXAMPLE, name);
            }
            case EXAMPLE -> {
                switch (name) {
                    case "test_message" -> {
                        String program = attr(attrNames, attrValues, "program");
                        if (program != null) {
                            example.program = program;
                        }
                        push(State.TEST_MESSAGE, name);
                    }
                    case "test_values" -> push(State.TEST_VALUES, name);
                    default -> throw unexpected(name, offset, "a <test_message>, <test_values>",
                            "an <example> holds <test_message> and <test_values>; wrap <test_value> elements in"
                                    + " <test_values>");
                }
            }
            case TEST_VALUES -> {
                if (!name.equals("test_value")) {
                    throw unexpected(name, offset, "<test_value>", "<test_values> holds only <test_value> elements");
                }
                if (attrNames.length == 0 || !attrNames[0].equals("name")) {
                    throw error(offset, "<test_value> misses name attribute; the reference (syslog-ng 3.38) "
                            + "requires name to be the first attribute, write <test_value name=\"...\" ...>");
                }
                testValueName = attrValues[0];
                testValueType = attr(attrNames, attrValues, "type");
                push(State.TEST_VALUE, name);
            }
            case ACTIONS -> {
                if (!name.equals("action")) {
                    throw unexpected(name, offset, "a <action>", "<actions> holds only <action> elements");
                }
                startAction(attrNames, attrValues, offset);
                push(State.ACTION, name);
            }
            case ACTION -> {
                switch (name) {
                    case "message" -> {
                        if (action.kind != ActionBuilder.MESSAGE) {
                            action.message = new MessageBuilder(positions.line(offset));
                        }
                        action.kind = ActionBuilder.MESSAGE;
                        startMessage(action.message, attrNames, attrValues, offset);
                    }
                    case "create-context" -> {
                        startCreateContext(attrNames, attrValues, offset);
                        push(State.CREATE_CONTEXT, name);
                    }
                    default -> throw unexpected(name, offset, "<message> or <create-context>",
                            "an <action> holds one <message> or one <create-context>");
                }
            }
            case CREATE_CONTEXT -> {
                if (!name.equals("message")) {
                    throw unexpected(name, offset, "<message>", "a <create-context> holds one <message>");
                }
                startMessage(action.createContext.message, attrNames, attrValues, offset);
            }
            case MESSAGE -> {
                switch (name) {
                    case "values", "tags" -> push(State.MESSAGE, name);
                    case "value" -> startValue(attrNames, attrValues, offset);
                    case "tag" -> push(State.TAG, name);
                    default -> throw unexpected(name, offset, "a <values>, <value>, <tags> or <tag>",
                            MESSAGE_CHILDREN);
                }
            }
            default -> throw error(offset, "Unexpected <" + name + "> tag inside <" + stack.peek().element()
                    + ">; this element holds text only, remove the <" + name + "> element");
        }
    }

    /** An element ends; {@code offset} is after its end tag. */
    void endElement(String name, int offset) throws PdbLoadException {
        Frame frame = stack.pop();
        State ending = state;
        state = frame.state();
        switch (ending) {
            case RULESET -> {
                if (name.equals("ruleset")) {
                    rulesets.add(ruleset.build());
                    ruleset = null;
                }
            }
            case RULE -> {
                if (name.equals("rule")) {
                    ruleset.rules.add(rule.build());
                    rule = null;
                    message = null;
                }
            }
            case EXAMPLE -> {
                rule.examples.add(example.build());
                example = null;
            }
            case ACTION -> {
                rule.actions.add(action.build());
                action = null;
            }
            case MESSAGE -> {
                if (name.equals("message")) {
                    message = rule.message;
                }
            }
            case VALUE -> {
                valueName = null;
                valueType = null;
            }
            case TEST_VALUE -> {
                testValueName = null;
                testValueType = null;
            }
            default -> {
                // nothing to finish
            }
        }
    }

    /**
     * A text run between two pieces of markup (possibly empty), entities decoded; {@code offset} is where
     * the run ends (the {@code <} of the next markup), which is where the reference reports it.
     */
    void text(String text, int offset) throws PdbLoadException {
        switch (state) {
            case RULESET_PATTERN -> ruleset.programPatterns.add(patternText(text, offset));
            case RULE_PATTERN -> rule.patterns.add(patternText(text, offset));
            case TEST_MESSAGE -> example.message = text;
            case TEST_VALUE -> {
                if (testValueName != null) {
                    example.testValues.add(new TestValue(testValueName, text, testValueType));
                    testValueName = null;
                }
            }
            case VALUE -> message.values.add(new ValueDef(valueName, text, valueType, positions.line(offset)));
            case TAG -> message.tags.add(text);
            case RULESET_DESCRIPTION, RULESET_URL, RULE_DESCRIPTION, RULE_URL, EXAMPLE -> {
                // ignored, as in the reference
            }
            default -> {
                if (!isWhitespace(text)) {
                    String where = stack.isEmpty() ? "outside the root element" : "in <" + stack.peek().element() + ">";
                    throw error(offset, "Unexpected text node " + where + ", text=[[" + abbreviate(text.strip())
                            + "]]; text belongs in <pattern>, <tag>, <value>, <test_message>, <test_value>,"
                            + " <description> or <url>: remove it or wrap it in the right element");
                }
            }
        }
    }

    private void startRoot(String name, String[] attrNames, String[] attrValues, int offset)
            throws PdbLoadException {
        if (!name.equals("patterndb")) {
            throw unexpected(name, offset, "a <patterndb>",
                    "a ruleset file's root element is <patterndb version=\"4\">, wrap the rulesets in it");
        }
        String versionText = attr(attrNames, attrValues, "version");
        pubDate = attr(attrNames, attrValues, "pub_date");
        if (versionText == null) {
            warnings.add(source + ":" + positions.line(offset) + ":" + positions.column(offset)
                    + ": patterndb version is unspecified, assuming v4 format; add version=\"4\" to <patterndb>");
            version = 4;
        } else {
            version = CNumbers.atoi(versionText);
            if (version < 2) {
                throw error(offset, "patterndb version too old (version='" + versionText + "'), syslog-ng 3.38 "
                        + "reads versions 2 to 5; convert v1 files (<program> instead of <ruleset>) to v4 with "
                        + "syslog-ng's `pdbtool merge`, which this loader does not do");
            }
            if (version > 5) {
                throw error(offset, "patterndb version too new (version='" + versionText + "'), syslog-ng 3.38 "
                        + "reads versions 2 to 5; v6 needs syslog-ng 4.x: drop the v6 type= attributes and "
                        + "declare version='5'");
            }
        }
        push(State.PATTERNDB, name);
    }

    private void startRule(String[] attrNames, String[] attrValues, int offset) throws PdbLoadException {
        RuleBuilder r = new RuleBuilder(positions.line(offset));
        for (int i = 0; i < attrNames.length; i++) {
            String value = attrValues[i];
            switch (attrNames[i]) {
                case "class" -> r.ruleClass = value;
                case "id" -> r.id = value;
                case "provider" -> r.provider = value;
                case "context-id" -> r.contextId = value;
                case "context-timeout" -> r.contextTimeout = CNumbers.strtol(value, 0);
                case "context-scope" -> r.contextScope = scope(value, offset);
                default -> {
                    // unknown attributes are ignored
                }
            }
        }
        if (r.id == null) {
            throw error(offset, "No id attribute for rule element; every <rule> needs a unique id=\"...\"");
        }
        rule = r;
        message = r.message;
    }

    private void startValue(String[] attrNames, String[] attrValues, int offset) throws PdbLoadException {
        if (attrNames.length == 0 || !attrNames[0].equals("name")) {
            throw error(offset, "<value> misses name attribute in rule " + rule.id + "; the reference (syslog-ng "
                    + "3.38) requires name to be the first attribute, write <value name=\"...\" ...>");
        }
        valueName = attrValues[0];
        valueType = attr(attrNames, attrValues, "type");
        push(State.VALUE, "value");
    }

    private void startAction(String[] attrNames, String[] attrValues, int offset) throws PdbLoadException {
        ActionBuilder a = new ActionBuilder(positions.line(offset));
        for (int i = 0; i < attrNames.length; i++) {
            String value = attrValues[i];
            switch (attrNames[i]) {
                case "trigger" -> {
                    if (value.equals("match")) {
                        a.trigger = Trigger.MATCH;
                    } else if (value.equals("timeout")) {
                        a.trigger = Trigger.TIMEOUT;
                    } else {
                        throw error(offset, "Unknown trigger type: " + value + " (rule " + rule.id
                                + "); use trigger=\"match\" or trigger=\"timeout\"");
                    }
                }
                case "condition" -> a.condition = value;
                case "rate" -> {
                    int slash = value.indexOf('/');
                    if (slash < 0) {
                        a.rateCount = CNumbers.atoi(value);
                        a.rateSeconds = 1;
                    } else {
                        a.rateCount = CNumbers.atoi(value.substring(0, slash));
                        a.rateSeconds = CNumbers.atoi(value.substring(slash + 1));
                    }
                    if (a.rateSeconds == 0) {
                        a.rateSeconds = 1;
                    }
                }
                default -> {
                    // unknown attributes are ignored
                }
            }
        }
        action = a;
    }

    private void startCreateContext(String[] attrNames, String[] attrValues, int offset) throws PdbLoadException {
        CreateContextBuilder c = new CreateContextBuilder(positions.line(offset));
        for (int i = 0; i < attrNames.length; i++) {
            String value = attrValues[i];
            switch (attrNames[i]) {
                case "context-id" -> c.contextId = value;
                case "context-timeout" -> c.timeout = CNumbers.strtol(value, 0);
                case "context-scope" -> c.scope = scope(value, offset);
                default -> {
                    // unknown attributes are ignored
                }
            }
        }
        if (c.contextId == null) {
            throw error(offset, "context-id attribute is missing from <create-context>, rule=" + rule.id
                    + "; add context-id=\"...\" (a template naming the new context)");
        }
        action.createContext = c;
        action.kind = ActionBuilder.CREATE_CONTEXT;
    }

    private void startMessage(MessageBuilder target, String[] attrNames, String[] attrValues, int offset)
            throws PdbLoadException {
        for (int i = 0; i < attrNames.length; i++) {
            String value = attrValues[i];
            switch (attrNames[i]) {
                case "inherit-properties" -> target.inheritMode = inheritProperties(value, offset);
                case "inherit-mode" -> target.inheritMode = inheritMode(value, offset);
                default -> {
                    // unknown attributes are ignored
                }
            }
        }
        message = target;
        push(State.MESSAGE, "message");
    }

    private Scope scope(String value, int offset) throws PdbLoadException {
        Scope s = Scope.parse(value);
        if (s == null) {
            throw error(offset, "Unknown context scope: " + value + "; use process, program, host or global");
        }
        return s;
    }

    private InheritMode inheritMode(String value, int offset) throws PdbLoadException {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "none" -> InheritMode.NONE;
            case "last-message" -> InheritMode.LAST_MESSAGE;
            case "context" -> InheritMode.CONTEXT;
            default -> throw error(offset, "Unknown inherit mode " + value
                    + "; use inherit-mode=\"none\", \"last-message\" or \"context\"");
        };
    }

    private InheritMode inheritProperties(String value, int offset) throws PdbLoadException {
        if (value.equalsIgnoreCase("context")) {
            return InheritMode.CONTEXT;
        }
        char first = value.isEmpty() ? 0 : value.charAt(0);
        if (first == 'T' || first == 't' || first == '1') {
            return InheritMode.LAST_MESSAGE;
        }
        if (first == 'F' || first == 'f' || first == '0') {
            return InheritMode.NONE;
        }
        throw error(offset, "Unknown inherit-properties: " + value
                + "; use TRUE, FALSE or context (or the newer inherit-mode attribute)");
    }

    private PatternText patternText(String text, int offset) {
        return new PatternText(text, positions.line(offset), positions.column(offset));
    }

    private void push(State next, String element) {
        stack.push(new Frame(state, element));
        state = next;
    }

    private PdbLoadException unexpected(String name, int offset, String expected, String hint) {
        return error(offset, "Unexpected <" + name + "> tag, expected " + expected + "; " + hint);
    }

    private PdbLoadException error(int offset, String message) {
        return new PdbLoadException(source, positions.line(offset), positions.column(offset), message);
    }

    private static String attr(String[] names, String[] values, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    /** GLib's {@code g_ascii_isspace}, which the reference uses to tolerate whitespace between elements. */
    private static boolean isWhitespace(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!CNumbers.isCSpace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    private static final class RulesetBuilder {
        final String name;
        final String id;
        final int line;
        final List<PatternText> programPatterns = new ArrayList<>();
        final List<RuleDef> rules = new ArrayList<>();

        RulesetBuilder(String name, String id, int line) {
            this.name = name;
            this.id = id;
            this.line = line;
        }

        RulesetDef build() {
            return new RulesetDef(name, id, List.copyOf(programPatterns), List.copyOf(rules), line);
        }
    }

    private static final class RuleBuilder {
        final int line;
        String id;
        String ruleClass;
        String provider;
        String contextId;
        long contextTimeout;
        Scope contextScope = Scope.PROCESS;
        final List<PatternText> patterns = new ArrayList<>();
        final MessageBuilder message;
        final List<ActionDef> actions = new ArrayList<>();
        final List<ExampleDef> examples = new ArrayList<>();

        RuleBuilder(int line) {
            this.line = line;
            this.message = new MessageBuilder(line);
        }

        RuleDef build() {
            return new RuleDef(id, ruleClass, provider, contextId, contextTimeout, contextScope,
                    List.copyOf(patterns), List.copyOf(message.tags), List.copyOf(message.values),
                    List.copyOf(actions), List.copyOf(examples), line);
        }
    }

    private static final class MessageBuilder {
        final int line;
        InheritMode inheritMode = InheritMode.NONE;
        final List<String> tags = new ArrayList<>();
        final List<ValueDef> values = new ArrayList<>();

        MessageBuilder(int line) {
            this.line = line;
        }

        MessageDef build() {
            return new MessageDef(inheritMode, List.copyOf(tags), List.copyOf(values), line);
        }
    }

    private static final class CreateContextBuilder {
        final int line;
        String contextId;
        long timeout;
        Scope scope = Scope.PROCESS;
        final MessageBuilder message;

        CreateContextBuilder(int line) {
            this.line = line;
            this.message = new MessageBuilder(line);
        }

        CreateContextDef build() {
            return new CreateContextDef(contextId, timeout, scope, message.build(), line);
        }
    }

    /**
     * An action under construction. The reference keeps one content slot: a later {@code <message>} or
     * {@code <create-context>} child replaces the kind, and a second {@code <message>} adds to the first.
     */
    private static final class ActionBuilder {
        static final int NONE = 0;
        static final int MESSAGE = 1;
        static final int CREATE_CONTEXT = 2;

        final int line;
        Trigger trigger = Trigger.MATCH;
        String condition;
        int rateCount;
        int rateSeconds = 1;
        int kind = NONE;
        MessageBuilder message;
        CreateContextBuilder createContext;

        ActionBuilder(int line) {
            this.line = line;
        }

        ActionDef build() {
            return new ActionDef(trigger, condition, rateCount, rateSeconds,
                    kind == MESSAGE ? message.build() : null,
                    kind == CREATE_CONTEXT ? createContext.build() : null, line);
        }
    }

    private static final class ExampleBuilder {
        final int line;
        String program;
        String message;
        final List<TestValue> testValues = new ArrayList<>();

        ExampleBuilder(int line) {
            this.line = line;
        }

        ExampleDef build() {
            return new ExampleDef(program, message, List.copyOf(testValues), line);
        }
    }
}
