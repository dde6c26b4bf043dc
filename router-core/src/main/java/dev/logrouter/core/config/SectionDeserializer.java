package dev.logrouter.core.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Binds a top-level key the core does not know to the record a module registered for it
 * ({@link ComponentRegistry#section}); an unregistered key is an unknown option, listing the known ones, also when
 * its value is empty ({@code bogus:}).
 *
 * <p>Threads: stateless; called by Jackson on the loading thread.
 */
final class SectionDeserializer extends JsonDeserializer<Object> {

    /** The deserialization attribute holding the registered sections (key → record). */
    static final String SECTIONS = "logrouter.sections";

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        String key = p.currentName();
        Class<?> type = registered(p, ctxt, key);
        if (!p.hasToken(JsonToken.START_OBJECT)) {
            throw MismatchedInputException.from(p, type, key + " is a map of options (" + key
                    + ": {option: value}, or one option per indented line), not " + p.currentToken().asString());
        }
        return ctxt.readValue(p, type);
    }

    /** An empty value: the section takes its defaults (the loader fills them); an unknown key is still refused. */
    @Override
    public Object getNullValue(DeserializationContext ctxt) throws JsonMappingException {
        JsonParser p = ctxt.getParser();
        registered(p, ctxt, p.getParsingContext().getCurrentName()); // the parser is at the key's empty value
        return null;
    }

    /** The record registered for {@code key}; throws an unknown-option error naming the known keys otherwise. */
    private static Class<?> registered(JsonParser p, DeserializationContext ctxt, String key)
            throws JsonMappingException {
        @SuppressWarnings("unchecked")
        Map<String, Class<?>> sections = (Map<String, Class<?>>) ctxt.getAttribute(SECTIONS);
        Class<?> type = sections == null ? null : sections.get(key);
        if (type != null) {
            return type;
        }
        List<Object> known = new ArrayList<>(RouterConfig.coreKeys());
        if (sections != null) {
            known.addAll(sections.keySet());
        }
        // Jackson adds the key to the path itself when it wraps this error
        throw new UnrecognizedPropertyException(p, "unknown top-level option '" + key + "'",
                p.currentTokenLocation(), RouterConfig.class, key, known);
    }
}
