package dev.logrouter.core.event;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names under {@code .tls.} belong to the TLS source, which sets them through a {@link FieldName}: writers of
 * message content (parsers, which name fields with bytes) can neither create nor replace them, so a client cannot
 * forge the certificate subject that routes use. The same holds for {@code .unix.}, the peer credentials of a
 * unix-stream source.
 */
class ReservedTlsFieldsTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String value(FieldTable t, String name) {
        int i = t.indexOf(b(name));
        return i < 0 ? null : new String(t.data(), t.valueOffset(i), t.valueLength(i), StandardCharsets.UTF_8);
    }

    @Test
    void contentCannotCreateOrReplaceTlsFields() {
        FieldTable t = new FieldTable();
        byte[] forged = b("frontend");
        assertThat(t.set(b(".tls.x509_ou"), 0, 12, forged, 0, forged.length, 0)).isEqualTo(-1);
        assertThat(t.set(b(".tls."), 0, 5, b("x509_cn"), 0, 7, forged, 0, forged.length, 0)).isEqualTo(-1);
        assertThat(t.begin(b(".tls.x509_o"), 0, 11, 0)).isEqualTo(-1);
        assertThat(value(t, ".tls.x509_ou")).isNull();
        assertThat(t.size()).isZero();

        byte[] real = b("storage");
        assertThat(t.set(FieldName.of(".tls.x509_ou"), real, 0, real.length, 0)).isNotNegative();
        assertThat(t.set(b(".tls.x509_ou"), 0, 12, forged, 0, forged.length, 0)).isEqualTo(-1);
        assertThat(value(t, ".tls.x509_ou")).isEqualTo("storage");

        // names that merely look alike are ordinary
        assertThat(t.set(b(".tlsx"), 0, 5, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.set(b("tls.x509_cn"), 0, 11, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.set(b(".tls."), 0, 5, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.size()).isEqualTo(4);
    }

    @Test
    void contentCannotCreateOrReplaceUnixCredentials() {
        FieldTable t = new FieldTable();
        byte[] forged = b("0");
        assertThat(t.set(b(".unix.uid"), 0, 9, forged, 0, forged.length, 0)).isEqualTo(-1);
        assertThat(t.set(b(".unix."), 0, 6, b("pid"), 0, 3, forged, 0, forged.length, 0)).isEqualTo(-1);
        byte[] real = b("1000");
        assertThat(t.set(FieldName.of(".unix.uid"), real, 0, real.length, 0)).isNotNegative();
        assertThat(t.set(b(".unix.uid"), 0, 9, forged, 0, forged.length, 0)).isEqualTo(-1);
        assertThat(value(t, ".unix.uid")).isEqualTo("1000");
        // names that merely look alike are ordinary
        assertThat(t.set(b(".unix"), 0, 5, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.set(b(".unix."), 0, 6, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.set(b(".unixy"), 0, 6, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.set(b(".u"), 0, 2, forged, 0, forged.length, 0)).isNotNegative();
        assertThat(t.size()).isEqualTo(5);
    }
}
