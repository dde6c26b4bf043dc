package dev.logrouter.core.filter;

import java.util.Map;

/**
 * PLACEHOLDER, replaced by the filter language implementation.
 */
public final class FilterExpression {

    private FilterExpression() {
    }

    public static FilterExpression compile(String text, Map<String, String> named) {
        throw new IllegalArgumentException("filters are not implemented yet");
    }

    public Filter newFilter() {
        throw new IllegalStateException();
    }
}
