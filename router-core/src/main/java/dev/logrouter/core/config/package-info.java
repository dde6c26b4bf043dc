/**
 * Configuration: YAML bound to immutable records whose options are declared once with
 * {@link dev.logrouter.core.option.Option} (doc and default); {@link dev.logrouter.core.config.ConfigLoader}
 * reports unknown keys and bad values with file, line and YAML path.
 */
package dev.logrouter.core.config;

import dev.logrouter.core.option.Option;
