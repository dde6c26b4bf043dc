package dev.logrouter.server;

import dev.logrouter.core.testing.TestPki;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The example configurations of {@code config/}, copied for checking: ruleset paths ({@code [config/...}) made
 * absolute, and the placeholder certificate directory {@code /etc/logrouter/tls/} pointed at a test PKI that has the
 * files the examples name ({@code ca.pem}, {@code relay.pem}/{@code .key}, {@code relay-client.pem}/{@code .key}).
 */
final class ExampleConfigs {

    static final String TLS_DIR = "/etc/logrouter/tls/";

    private ExampleConfigs() {
    }

    /** One example: its file in config/ and the checkable copy. */
    record Example(Path original, Path copy) {
    }

    static List<Example> materialize(Path root, Path work) throws IOException, InterruptedException {
        Path pkiDir = Files.createDirectories(work.resolve("pki"));
        new TestPki(pkiDir).server("relay", "localhost").client("relay-client", "/O=Example/CN=relay-client");
        List<Example> out = new ArrayList<>();
        try (var files = Files.list(root.resolve("config"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                Path copy = work.resolve(f.getFileName());
                Files.writeString(copy, Files.readString(f).replace("[config/", "[" + root.resolve("config") + "/")
                        .replace(TLS_DIR, pkiDir + "/"));
                out.add(new Example(f, copy));
            }
        }
        return out;
    }
}
