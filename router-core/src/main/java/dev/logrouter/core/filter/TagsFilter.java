package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

/**
 * {@code tags("a", "b")}: true when the message carries any of the tags (syslog-ng's {@code filter-tags}).
 * Tag names are turned into ids ({@link dev.logrouter.core.event.Tags#id}) when the filter is compiled, so a
 * test is a few int compares. Stateless: one instance serves every thread.
 *
 * <p>Threads: immutable, any thread.
 */
final class TagsFilter implements FilterNode, Filter {

    private final int[] ids;
    private final String text;

    TagsFilter(int[] ids, String text) {
        this.ids = ids;
        this.text = text;
    }

    @Override
    public boolean test(LogEvent event) {
        for (int id : ids) {
            if (event.hasTag(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Filter newFilter() {
        return this;
    }

    @Override
    public String describe() {
        return text;
    }
}
