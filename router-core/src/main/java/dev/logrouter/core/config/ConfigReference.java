package dev.logrouter.core.config;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.Option;
import dev.logrouter.core.option.TimeSpan;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * Prints the configuration reference (Markdown tables) from the {@link Option} declarations, so that
 * the documentation cannot drift from the code: docs/reference.md is this output, and a test
 * checks it.
 *
 * <p>Threads: stateless; cold path.
 */
public final class ConfigReference {

    private ConfigReference() {
    }

    /**
     * @param sections          heading (e.g. {@code sources[] type: tcp}) → config record, in print order; the first
     *                          is the top level
     * @param topLevelSections  the modules' top-level sections (key → doc), listed as rows of the first table
     */
    public static String markdown(Map<String, Class<?>> sections, Map<String, String> topLevelSections) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Map.Entry<String, Class<?>> e : sections.entrySet()) {
            sb.append("#### `").append(e.getKey()).append("`\n\n");
            sb.append("| key | type | default | meaning |\n|---|---|---|---|\n");
            for (RecordComponent rc : e.getValue().getRecordComponents()) {
                Option opt = rc.getAnnotation(Option.class);
                if (opt == null) {
                    continue;
                }
                String key = rc.getName().equals("isFinal") ? "final"
                        : PropertyNamingStrategies.KebabCaseStrategy.INSTANCE.translate(rc.getName());
                String def = switch (opt.defaultValue()) {
                    case Option.REQUIRED -> "required";
                    case Option.NONE -> "—";
                    default -> "`" + opt.defaultValue().replace("|", "\\|") + "`";
                };
                sb.append("| `").append(key).append("` | ").append(typeName(rc.getGenericType())).append(" | ")
                        .append(def).append(" | ").append(opt.doc().replace("|", "\\|")).append(" |\n");
            }
            if (first) {
                topLevelSections.forEach((key, doc) -> sb.append("| `").append(key).append("` | map | `{}` | ")
                        .append(doc.replace("|", "\\|")).append(" |\n"));
                first = false;
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String typeName(Type t) {
        if (t instanceof ParameterizedType pt && pt.getRawType() == Map.class) {
            Type value = pt.getActualTypeArguments()[1];
            if (value instanceof ParameterizedType vp && vp.getActualTypeArguments()[0] instanceof Class<?> c
                    && c.isInterface()) {
                return "map of name → list (each item has `type:`)";
            }
            return "map of name → " + typeName(value);
        }
        if (t instanceof ParameterizedType pt) {
            Type item = pt.getActualTypeArguments()[0];
            if (item instanceof Class<?> c && c.isInterface()) {
                return "list (each item has `type:`)";
            }
            return "list of " + typeName(item);
        }
        if (t instanceof Class<?> c) {
            if (c == Integer.class) {
                return "integer";
            }
            if (c == Boolean.class) {
                return "boolean";
            }
            if (c == String.class) {
                return "string";
            }
            if (c == ByteSize.class) {
                return "size";
            }
            if (c == TimeSpan.class) {
                return "duration";
            }
            if (c.isEnum()) {
                StringBuilder sb = new StringBuilder();
                for (Object k : c.getEnumConstants()) {
                    if (sb.length() > 0) {
                        sb.append(" \\| ");
                    }
                    String name = ((Enum<?>) k).name();
                    try {
                        var jp = c.getField(name).getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
                        if (jp != null) {
                            name = jp.value();
                        }
                    } catch (NoSuchFieldException ignored) {
                        // enum constants are fields
                    }
                    sb.append(name);
                }
                return sb.toString();
            }
            if (c.isInterface()) {
                return "list item with `type:`";
            }
            return "map";
        }
        return t.getTypeName();
    }
}
