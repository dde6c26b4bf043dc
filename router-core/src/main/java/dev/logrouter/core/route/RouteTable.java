package dev.logrouter.core.route;

import dev.logrouter.core.config.RouteConfig;
import dev.logrouter.core.config.RouterConfig;

import java.util.List;

/**
 * Which sinks each source's messages go to, as one 64-bit mask per source (bit k = sink k in config
 * order), computed once at startup from the routes: they are evaluated in order, a route takes a source
 * when its {@code from} is empty or names it, adds its sinks, and a {@code final} route ends the
 * evaluation for that source. No routes at all means every source goes to every sink.
 *
 * <p>Threads: immutable after construction; read by source threads when they publish.
 */
public final class RouteTable {

    private final long[] masks;

    public RouteTable(RouterConfig cfg) {
        int nSources = cfg.sources().size();
        masks = new long[nSources];
        List<String> sinkNames = cfg.sinks().stream().map(s -> s.name()).toList();
        for (int s = 0; s < nSources; s++) {
            String source = cfg.sources().get(s).name();
            if (cfg.routes().isEmpty()) {
                masks[s] = sinkNames.size() == 64 ? -1L : (1L << sinkNames.size()) - 1;
                continue;
            }
            long mask = 0;
            for (RouteConfig r : cfg.routes()) {
                if (!r.from().isEmpty() && !r.from().contains(source)) {
                    continue;
                }
                for (String sink : r.to()) {
                    mask |= 1L << sinkNames.indexOf(sink);
                }
                if (Boolean.TRUE.equals(r.isFinal())) {
                    break;
                }
            }
            masks[s] = mask;
        }
    }

    /** The sink mask for source number {@code sourceIndex} (config order). */
    public long sinkMask(int sourceIndex) {
        return masks[sourceIndex];
    }
}
