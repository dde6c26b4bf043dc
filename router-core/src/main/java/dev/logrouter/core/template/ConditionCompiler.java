package dev.logrouter.core.template;

import java.util.ServiceLoader;

/**
 * The {@link TemplateCondition.Compiler} on the class path (the filter package's), looked up once, when the first
 * template with a condition is compiled.
 *
 * <p>Threads: any; the lookup is done under the class's lock the first time.
 */
final class ConditionCompiler {

    private static TemplateCondition.Compiler compiler;

    private ConditionCompiler() {
    }

    static synchronized TemplateCondition.Compiler get() {
        if (compiler == null) {
            compiler = ServiceLoader.load(TemplateCondition.Compiler.class,
                    TemplateCondition.Compiler.class.getClassLoader()).findFirst().orElseThrow(() ->
                    new IllegalStateException("no " + TemplateCondition.Compiler.class.getName() + " on the class "
                            + "path: router-core's META-INF/services lists the filter package's"));
        }
        return compiler;
    }
}
