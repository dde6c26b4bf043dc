package dev.logrouter.server;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.option.ConfigException;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.netty.tls.TlsConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The component types the server's class path registers (every module's provider, found by ServiceLoader), and the
 * errors an operator meets with a type or key this build does not have.
 */
class ComponentTypesTest {

    private static final String SINKS = "sinks:\n  - {name: out, type: file, path: \"/tmp/x/${HOST}.log\"}\n";

    @Test
    void everyModuleRegistersItsTypesInDataFlowOrder() {
        assertThat(List.copyOf(ComponentTypes.REGISTRY.sources().keySet()))
                .containsExactly("tcp", "udp", "relp", "unix-dgram", "unix-stream", "file", "journald", "kafka");
        assertThat(List.copyOf(ComponentTypes.REGISTRY.sinks().keySet()))
                .containsExactly("syslog", "file", "kafka", "elasticsearch", "hdfs");
        assertThat(List.copyOf(ComponentTypes.REGISTRY.steps().keySet())).containsExactly("json", "kv", "xml", "csv",
                "regex", "set", "unset", "subst", "set-tag", "clear-tag", "patterndb");
        assertThat(List.copyOf(ComponentTypes.REGISTRY.sections().keySet()))
                .containsExactly("journal", "patterndb", "monitoring", "logging", "health");
    }

    @Test
    void anUnknownTypeListsTheRegisteredOnes() {
        Throwable t = catchThrowable(() -> ComponentTypes.loader().load(
                "sources:\n  - {name: in, type: tcp, bind: 127.0.0.1:0}\nsinks:\n  - {name: out, type: s3}\n",
                "r.yaml"));
        assertThat(t).isInstanceOf(ConfigException.class).hasMessage("r.yaml:4:5: sinks[0]: unknown or missing type "
                + "'s3' (set 'type:' to one of: syslog, file, kafka, elasticsearch, hdfs)");
    }

    @Test
    void theDesignsAndSyslogNgsSourceNamesNameTheirReplacement() {
        Throwable tls = catchThrowable(() -> ComponentTypes.loader().load(
                "sources:\n  - {name: in, type: tls, bind: 127.0.0.1:0}\n" + SINKS, "r.yaml"));
        assertThat(tls).isInstanceOf(ConfigException.class).hasMessageContaining("unknown or missing type 'tls' "
                + "(set 'type:' to one of: tcp, udp, relp, unix-dgram, unix-stream, file, journald, kafka); TLS (RFC 5425) "
                + "is type: tcp with a tls: map");
        Throwable wildcard = catchThrowable(() -> ComponentTypes.loader().load(
                "sources:\n  - {name: in, type: wildcard-file}\n" + SINKS, "r.yaml"));
        assertThat(wildcard).hasMessageContaining("syslog-ng's wildcard-file() is type: file");
        Throwable network = catchThrowable(() -> ComponentTypes.loader().load(
                "sources:\n  - {name: in, type: network, bind: 127.0.0.1:0}\n" + SINKS, "r.yaml"));
        assertThat(network).hasMessageContaining("syslog-ng's network() is type: tcp or type: udp");
        Throwable networkSink = catchThrowable(() -> ComponentTypes.loader().load(
                "sinks:\n  - {name: out, type: network, hosts: [\"h:514\"]}\n", "r.yaml"));
        assertThat(networkSink).hasMessageContaining("syslog-ng's network() destination is type: syslog with "
                + "format: rfc3164");
    }

    @Test
    void theTlsMapTakesTheDesignsKeyNames() throws Exception {
        RouterConfig cfg = ComponentTypes.loader().load("sources:\n  - name: in\n    type: tcp\n"
                + "    bind: 127.0.0.1:0\n"
                + "    tls: {cert: server.crt, key: server.key, ca: ca.crt, peer-verify: required}\n" + SINKS, "r.yaml");
        TlsConfig tls = ((TcpSourceConfig) cfg.sources().get(0)).tls();
        assertThat(tls.certFile()).isEqualTo("server.crt");
        assertThat(tls.keyFile()).isEqualTo("server.key");
        assertThat(tls.caFile()).isEqualTo("ca.crt");
        assertThat(tls.clientAuth()).isEqualTo(TlsConfig.ClientAuthMode.required);
        RouterConfig sng = ComponentTypes.loader().load("sources:\n  - name: in\n    type: tcp\n"
                + "    bind: 127.0.0.1:0\n"
                + "    tls: {cert: s.crt, key: s.key, ca: ca.crt, peer-verify: optional-trusted}\n" + SINKS, "r.yaml");
        assertThat(((TcpSourceConfig) sng.sources().get(0)).tls().clientAuth())
                .isEqualTo(TlsConfig.ClientAuthMode.optional);
        Throwable untrusted = catchThrowable(() -> ComponentTypes.loader().load("sources:\n  - name: in\n"
                + "    type: tcp\n    bind: 127.0.0.1:0\n"
                + "    tls: {cert: s.crt, key: s.key, ca: ca.crt, peer-verify: required-untrusted}\n" + SINKS,
                "r.yaml"));
        assertThat(untrusted).isInstanceOf(ConfigException.class)
                .hasMessageContaining("peer-verify) required-untrusted is not supported");
    }
}
