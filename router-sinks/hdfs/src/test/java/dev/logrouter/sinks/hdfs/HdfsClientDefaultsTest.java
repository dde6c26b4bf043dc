package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.journal.Buffer;
import dev.logrouter.core.journal.JournalConfig;
import dev.logrouter.core.journal.Overflow;
import dev.logrouter.core.option.ByteSize;
import dev.logrouter.core.option.TimeSpan;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Hadoop client properties the sink sets itself ({@link HdfsDelivery#CLIENT_DEFAULTS}): applied unless
 * {@code config-dir} (a real hdfs-site.xml on disk) or {@code properties} sets the key.
 */
class HdfsClientDefaultsTest {

    private static final String PACKET_SIZE = "dfs.client-write-packet-size";
    private static final String BYTE_ARRAY_MANAGER = "dfs.client.write.byte-array-manager.enabled";

    @TempDir
    Path dir;

    @Test
    void packetsAreOneMebibyteUnlessConfigured() {
        Configuration conf = HdfsDelivery.hadoopConfiguration(cfg(null, Map.of()));

        assertThat(conf.getInt(PACKET_SIZE, -1)).isEqualTo(1 << 20);
    }

    @Test
    void packetBuffersAreReusedUnlessConfigured() {
        assertThat(HdfsDelivery.hadoopConfiguration(cfg(null, Map.of()))
                .getBoolean(BYTE_ARRAY_MANAGER, false)).isTrue();
        assertThat(HdfsDelivery.hadoopConfiguration(cfg(null, Map.of(BYTE_ARRAY_MANAGER, "false")))
                .getBoolean(BYTE_ARRAY_MANAGER, true)).isFalse();
    }

    @Test
    void propertiesWin() {
        Configuration conf = HdfsDelivery.hadoopConfiguration(cfg(null, Map.of(PACKET_SIZE, "65536")));

        assertThat(conf.getInt(PACKET_SIZE, -1)).isEqualTo(65536);
    }

    @Test
    void aSiteFileInConfigDirWins() throws IOException {
        Files.writeString(dir.resolve("hdfs-site.xml"), """
                <?xml version="1.0"?>
                <configuration>
                  <property><name>dfs.client-write-packet-size</name><value>131072</value></property>
                </configuration>
                """);

        Configuration conf = HdfsDelivery.hadoopConfiguration(cfg(dir.toString(), Map.of()));

        assertThat(conf.getInt(PACKET_SIZE, -1)).isEqualTo(131072);
    }

    @Test
    void aConfigDirWithoutTheKeyGetsTheDefault() throws IOException {
        Files.writeString(dir.resolve("core-site.xml"), """
                <?xml version="1.0"?>
                <configuration>
                  <property><name>fs.defaultFS</name><value>hdfs://nn:8020</value></property>
                </configuration>
                """);

        Configuration conf = HdfsDelivery.hadoopConfiguration(cfg(dir.toString(), Map.of()));

        assertThat(conf.getInt(PACKET_SIZE, -1)).isEqualTo(1 << 20);
        assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://nn:8020");
    }

    private static HdfsSinkConfig cfg(String configDir, Map<String, String> properties) {
        return new HdfsSinkConfig("t", "hdfs://127.0.0.1:1", "/logs/${HOST}.log", "${MSG}\n", 5000,
                ByteSize.parse("4MiB"), TimeSpan.parse("1s"), -1, null, HdfsSync.hflush, ByteSize.parse("128MiB"), null,
                TimeSpan.parse("60s"), ".tmp", 64, HdfsCompression.none, configDir, properties, null, Buffer.memory,
                JournalConfig.defaults(), TimeSpan.parse("5s"), Overflow.block, null);
    }
}
