package dev.logrouter.sinks.elasticsearch;

import dev.logrouter.core.template.ByteBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Index names made valid from hostile rendered values, and generated ids. */
class IndexNamesTest {

    /** Sanitizes {@code name} behind a prefix (as in a record), which must stay as it was. */
    private static String sanitize(String name, int max) {
        ByteBuilder b = new ByteBuilder(16);
        b.append("-_X".getBytes(StandardCharsets.US_ASCII));
        b.append(name.getBytes(StandardCharsets.UTF_8));
        IndexNames.sanitize(b, 3, max);
        String s = b.toString();
        assertThat(s).startsWith("-_X");
        return s.substring(3);
    }

    @Test
    void forbiddenBytesBecomeUnderscoresAndLettersLowercase() {
        assertThat(sanitize("Logs-WEB1", 255)).isEqualTo("logs-web1");
        assertThat(sanitize("logs-a/b\\c*d?e\"f<g>h|i,j#k:l m\tn\u0001o", 255))
                .isEqualTo("logs-a_b_c_d_e_f_g_h_i_j_k_l_m_n_o");
        assertThat(sanitize("-_+logs", 255)).isEqualTo("logs");
        assertThat(sanitize("logs-é", 255)).isEqualTo("logs-é"); // non-ASCII is allowed
    }

    @Test
    void emptyDotAndDotDotGetAName() {
        assertThat(sanitize("", 255)).isEqualTo("logrouter-unnamed");
        assertThat(sanitize("---", 255)).isEqualTo("logrouter-unnamed");
        assertThat(sanitize(".", 255)).isEqualTo("logrouter-unnamed");
        assertThat(sanitize("..", 255)).isEqualTo("logrouter-unnamed");
        assertThat(sanitize("...", 255)).isEqualTo("...");
    }

    @Test
    void longNamesAreCutWithoutSplittingACharacter() {
        assertThat(sanitize("a".repeat(300), 255)).hasSize(255);
        // "é" is 2 bytes: a cut after 5 bytes of "abcdé" + "é" keeps "abcd" + nothing half
        assertThat(sanitize("abcdéé", 5)).isEqualTo("abcd");
        assertThat(sanitize("abcdéé", 6)).isEqualTo("abcdé");
    }

    @Test
    void generatedIdsAreUniqueUrlSafeAndShareAPrefix() {
        DocumentIds ids = new DocumentIds();
        Set<String> seen = new HashSet<>();
        String first = ids.next();
        for (int i = 0; i < 100_000; i++) {
            String id = i == 0 ? first : ids.next();
            assertThat(id).hasSize(20).matches("[A-Za-z0-9_-]{20}");
            assertThat(seen.add(id)).isTrue();
            assertThat(id).startsWith(first.substring(0, 12));
        }
        assertThat(new DocumentIds().next().substring(0, 12)).isNotEqualTo(first.substring(0, 12));
    }
}
