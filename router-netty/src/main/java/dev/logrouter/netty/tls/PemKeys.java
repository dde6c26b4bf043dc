package dev.logrouter.netty.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Reads an unencrypted PKCS#8 PEM private key ({@code BEGIN PRIVATE KEY}) with the JDK's key factories, for the
 * key/certificate match check of {@link ServerTls}. Netty loads the key for the handshakes itself.
 *
 * <p>Threads: stateless.
 */
final class PemKeys {

    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";

    private PemKeys() {
    }

    /** The key, or null when the file holds no unencrypted PKCS#8 key of a type the JDK knows (Netty judges it). */
    static PrivateKey readPkcs8(Path file) throws IOException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        int b = pem.indexOf(BEGIN);
        int e = pem.indexOf(END);
        if (b < 0 || e < b) {
            return null;
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(b + BEGIN.length(), e));
        } catch (IllegalArgumentException bad) {
            return null;
        }
        for (String alg : new String[] {"EC", "RSA", "Ed25519", "RSASSA-PSS"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException wrongType) {
                // try the next type
            }
        }
        return null;
    }
}
