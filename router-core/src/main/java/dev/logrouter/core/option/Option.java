package dev.logrouter.core.option;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares one configuration option on a record component: its documentation and default. This is the
 * only place an option's default lives; {@link ConfigLoader} fills it in when the YAML leaves the
 * option out, and {@link ConfigReference} prints the reference table from it. The YAML key is the
 * component name in kebab-case ({@code maxMessageSize} → {@code max-message-size}).
 *
 * <p>Threads: read reflectively while loading configuration.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
public @interface Option {

    /** Marks an option without default that must be given. */
    String REQUIRED = "\u0000required";
    /** Marks an option that may be left out and then stays null (absent). */
    String NONE = "\u0000none";

    /** One or two sentences: what it does, accepted values. */
    String doc();

    /** The default in YAML syntax, {@link #REQUIRED} or {@link #NONE}. */
    String defaultValue();
}
