package dev.logrouter.sinks.hdfs;

import dev.logrouter.core.testing.Ports;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * A real HDFS for tests: Hadoop's {@link MiniDFSCluster} (one NameNode, one DataNode) in the test JVM, every address
 * on 127.0.0.1 with a free port, its storage under {@code target/hdfs-<n>}. It starts in about 10 s, so a test class
 * starts it once. The NameNode and the DataNode can be restarted on the same storage and ports.
 *
 * <p>Threads: called from the test thread.
 */
public final class HdfsCluster implements AutoCloseable {

    private final MiniDFSCluster cluster;
    private final FileSystem reader;

    private HdfsCluster(MiniDFSCluster cluster) throws IOException {
        this.cluster = cluster;
        this.reader = FileSystem.newInstance(URI.create(uri()), clientConfiguration());
    }

    /** Starts a cluster with its storage in a fresh directory under {@code target/}. */
    public static HdfsCluster start() throws IOException {
        java.nio.file.Path base = java.nio.file.Path.of("target").toAbsolutePath()
                .resolve("hdfs-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        for (String key : List.of("dfs.namenode.http-address", "dfs.namenode.https-address",
                "dfs.datanode.address", "dfs.datanode.http.address", "dfs.datanode.https.address",
                "dfs.datanode.ipc.address")) {
            conf.set(key, "127.0.0.1:" + Ports.freeLoopbackPort()); // kept across restarts: not ephemeral
        }
        conf.setInt("dfs.replication", 1);
        // one DataNode: a failed pipeline cannot be repaired by replacing a node, so do not try
        conf.set("dfs.client.block.write.replace-datanode-on-failure.enable", "false");
        MiniDFSCluster c = new MiniDFSCluster.Builder(conf, base.toFile()).numDataNodes(1)
                .nameNodePort(Ports.freeLoopbackPort()).build();
        c.waitActive();
        return new HdfsCluster(c);
    }

    public String uri() {
        return "hdfs://127.0.0.1:" + cluster.getNameNodePort();
    }

    /**
     * Client properties for a sink or reader of this one-DataNode cluster: one replica, and failures that surface in
     * seconds (the defaults retry a NameNode for minutes).
     */
    public static Map<String, String> clientProperties() {
        Map<String, String> p = new TreeMap<>();
        p.put("dfs.replication", "1");
        p.put("dfs.client.block.write.replace-datanode-on-failure.enable", "false");
        p.put("ipc.client.connect.max.retries", "2");
        p.put("ipc.client.connect.retry.interval", "200");
        p.put("dfs.client.retry.policy.enabled", "false");
        p.put("dfs.client.socket-timeout", "10000");
        return p;
    }

    private static Configuration clientConfiguration() {
        Configuration conf = new Configuration();
        clientProperties().forEach(conf::set);
        return conf;
    }

    /** A client for reading what a sink wrote. */
    public FileSystem fileSystem() {
        return reader;
    }

    /** Stops the NameNode (the DataNode keeps running). */
    public void stopNameNode() {
        cluster.shutdownNameNode(0);
    }

    /** Starts the stopped NameNode on the same storage and port, and waits until it serves again. */
    public void startNameNode() throws IOException {
        cluster.restartNameNode(0, true);
    }

    /** Restarts the DataNode on the same storage and ports, and waits until it has registered. */
    public void restartDataNode() throws IOException {
        cluster.restartDataNode(0, true);
        cluster.waitActive();
    }

    /** Every file under {@code dir}, recursively, by path. */
    public List<Path> files(String dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!reader.exists(new Path(dir))) {
            return out;
        }
        RemoteIterator<LocatedFileStatus> it = reader.listFiles(new Path(dir), true);
        while (it.hasNext()) {
            out.add(it.next().getPath());
        }
        out.sort(null);
        return out;
    }

    /** The lines of one file as a new reader sees them (gunzipped when the name ends in .gz or .gz.tmp). */
    public List<String> lines(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        String name = file.getName();
        try (InputStream raw = reader.open(file);
             InputStream in = name.endsWith(".gz") || name.endsWith(".gz.tmp") ? new GZIPInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                out.add(line);
            }
        }
        return out;
    }

    /** The lines of every file under {@code dir}, file after file in path order. */
    public List<String> allLines(String dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : files(dir)) {
            out.addAll(lines(p));
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            cluster.shutdown(true);
        }
    }
}
