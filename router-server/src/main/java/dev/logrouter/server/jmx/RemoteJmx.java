package dev.logrouter.server.jmx;

import dev.logrouter.core.config.JmxConfig;
import dev.logrouter.core.config.JmxTlsConfig;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.management.remote.rmi.RMIJRMPServerImpl;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * The remote JMX connector of {@code monitoring.jmx}: an RMI registry (holding the one entry {@code jmxrmi})
 * and the RMI connector share one port on one address, so a firewall or a container needs one port open.
 * Clients use the usual URL {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi} (jconsole {@code HOST:PORT}).
 * Authentication and access levels are the JDK's own (the {@code jmx.remote.x.password.file} and
 * {@code jmx.remote.x.access.file} environment of its RMI connector); TLS covers the registry and the
 * connector, like the JDK agent's {@code com.sun.management.jmxremote.registry.ssl=true}.
 *
 * <p>Threads: started and closed by the thread that starts and stops the router; RMI threads serve clients.
 */
public final class RemoteJmx implements AutoCloseable {

    private final Registry registry;
    private final RMIConnectorServer server;
    private final JMXServiceURL url;

    private RemoteJmx(Registry registry, RMIConnectorServer server, JMXServiceURL url) {
        this.registry = registry;
        this.server = server;
        this.url = url;
    }

    /** The URL clients connect to. */
    public JMXServiceURL url() {
        return url;
    }

    /**
     * Checks what {@link #start} reads: the password and access files exist, and the password file is not
     * readable by group or others (as the JDK agent requires); the key and trust stores open with their
     * passwords. Throws IllegalArgumentException with the reason (check-config reports it).
     */
    public static void check(JmxConfig cfg) {
        if (!cfg.remote()) {
            return;
        }
        if (cfg.passwordFile() != null) {
            Path p = Path.of(cfg.passwordFile());
            readable(p, "password-file");
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
                if (!java.util.Collections.disjoint(perms, EnumSet.of(PosixFilePermission.GROUP_READ,
                        PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_WRITE,
                        PosixFilePermission.OTHERS_WRITE))) {
                    throw new IllegalArgumentException("monitoring.jmx.password-file " + p + " must be readable by "
                            + "its owner only (chmod 600 " + p + "), as the JDK requires of jmxremote.password");
                }
            } catch (UnsupportedOperationException notPosix) {
                // not a POSIX file system: nothing to check
            } catch (IOException e) {
                throw new IllegalArgumentException("monitoring.jmx.password-file " + p + ": " + e.getMessage(), e);
            }
        }
        if (cfg.accessFile() != null) {
            readable(Path.of(cfg.accessFile()), "access-file");
        }
        if (cfg.tls() != null) {
            try {
                sslContext(cfg.tls());
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalArgumentException("monitoring.jmx.tls: " + e.getMessage(), e);
            }
        }
    }

    private static void readable(Path p, String option) {
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new IllegalArgumentException("monitoring.jmx." + option + " " + p + " is not a readable file");
        }
    }

    /**
     * Opens the registry and the connector on {@code cfg.bind():cfg.port()}. Unless the operator set
     * {@code java.rmi.server.hostname}, the address written into the connector's stub is the bind address
     * (a wildcard bind writes this host's name; behind NAT set {@code -Djava.rmi.server.hostname}).
     */
    public static RemoteJmx start(JmxConfig cfg, MBeanServer mbs) throws IOException {
        check(cfg);
        InetAddress address = InetAddress.getByName(cfg.bind());
        String host = cfg.bind().contains(":") ? "[" + cfg.bind() + "]" : cfg.bind();
        if (System.getProperty("java.rmi.server.hostname") == null && !address.isAnyLocalAddress()) {
            System.setProperty("java.rmi.server.hostname", cfg.bind());
        }
        Map<String, Object> env = new HashMap<>();
        RMIClientSocketFactory csf = null;
        RMIServerSocketFactory ssf;
        if (cfg.tls() != null) {
            try {
                ssf = new TlsServerSockets(address, sslContext(cfg.tls()), cfg.tls());
            } catch (GeneralSecurityException e) {
                throw new IOException("monitoring.jmx.tls: " + e.getMessage(), e);
            }
            csf = new SslRMIClientSocketFactory();
            env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, csf);
        } else {
            ssf = new PlainServerSockets(address);
        }
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, ssf);
        if (cfg.passwordFile() != null) {
            env.put("jmx.remote.x.password.file", cfg.passwordFile());
            if (cfg.accessFile() != null) {
                env.put("jmx.remote.x.access.file", cfg.accessFile());
            }
        }
        Registry registry = LocateRegistry.createRegistry(cfg.port(), csf, ssf);
        try {
            RMIJRMPServerImpl impl = new RMIJRMPServerImpl(cfg.port(), csf, ssf, env);
            RMIConnectorServer server = new RMIConnectorServer(new JMXServiceURL("rmi", host, cfg.port()), env,
                    impl, mbs);
            server.start();
            registry.rebind("jmxrmi", impl.toStub());
            return new RemoteJmx(registry, server,
                    new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + cfg.port() + "/jmxrmi"));
        } catch (IOException | RuntimeException e) {
            UnicastRemoteObject.unexportObject(registry, true);
            throw e;
        }
    }

    static SSLContext sslContext(JmxTlsConfig tls) throws IOException, GeneralSecurityException {
        char[] password = tls.keystorePassword().toCharArray();
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(tls.keystore(), tls.keystoreType(), password), password);
        TrustManagerFactory tmf = null;
        if (tls.truststore() != null) {
            tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(load(tls.truststore(), tls.keystoreType(),
                    tls.truststorePassword() == null ? null : tls.truststorePassword().toCharArray()));
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
        return ctx;
    }

    private static KeyStore load(String file, String type, char[] password) throws IOException,
            GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            ks.load(in, password);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        return ks;
    }

    /** Stops accepting clients, closes open client connections and frees the port. Idempotent. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException e) {
            System.err.println("logrouter: stopping remote JMX: " + e);
        }
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException ignored) {
            // already closed
        }
    }

    /**
     * Plain server sockets on one address. One instance serves the registry and the connector, which RMI then
     * exports on one shared listening socket (it shares a port between exports with equal factories).
     */
    private record PlainServerSockets(InetAddress address) implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, address);
        }
    }

    /** TLS server sockets on one address, with the configured protocols and client-certificate rule. */
    private record TlsServerSockets(InetAddress address, SSLContext context, JmxTlsConfig tls)
            implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            SSLServerSocket s = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(port, 50, address);
            s.setEnabledProtocols(tls.protocols().toArray(String[]::new));
            s.setNeedClientAuth(Boolean.TRUE.equals(tls.clientAuth()));
            return s;
        }
    }
}
