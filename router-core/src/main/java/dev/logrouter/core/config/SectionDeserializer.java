package dev.logrouter.core.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Binds a top-level key the core does not know to the record a module registered for it
 * ({@link ComponentRegistry#section}); an unregistered key is an unknown option, listing the known ones.
 *
 * <p>Threads: stateless; called by Jackson on the loading thread.
 */
final class SectionDeserializer extends JsonDeserializer<Object> {

    /** The deserialization attribute holding the registered sections (key → record). */
    static final String SECTIONS = "logrouter.sections";

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        String key = p.currentName();
        @SuppressWarnings("unchecked")
        Map<String, Class<?>> sections = (Map<String, Class<?>>) ctxt.getAttribute(SECTIONS);
        Class<?> type = sections == null ? null : sections.get(key);
        if (type == null) {
            List<Object> known = new ArrayList<>();
            for (var rc : RouterConfig.class.getRecordComponents()) {
                if (rc.getAnnotation(dev.logrouter.core.option.Option.class) != null) {
                    known.add(com.fasterxml.jackson.databind.PropertyNamingStrategies.KebabCaseStrategy.INSTANCE
                            .translate(rc.getName()));
                }
            }
            if (sections != null) {
                known.addAll(sections.keySet());
            }
            // Jackson adds the key to the path itself when it wraps this error
            throw new UnrecognizedPropertyException(p, "unknown top-level option '" + key + "'",
                    p.currentTokenLocation(), RouterConfig.class, key, known);
        }
        return ctxt.readValue(p, type);
    }
}
