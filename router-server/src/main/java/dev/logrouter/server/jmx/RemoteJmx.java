package dev.logrouter.server.jmx;

import dev.logrouter.core.metrics.MetricRegistry;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
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
import javax.management.ObjectName;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.MBeanServerForwarder;
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
 * connector, like the JDK agent's {@code com.sun.management.jmxremote.registry.ssl=true}. Remote clients read
 * every MBean but invoke operations of logrouter's only ({@link LogrouterOnly}).
 *
 * <p>Threads: started and closed by the thread that starts and stops the router; RMI threads serve clients.
 */
public final class RemoteJmx implements AutoCloseable {

    private static final Logger LOG = System.getLogger(RemoteJmx.class.getName());
    private static final String HOSTNAME_PROPERTY = "java.rmi.server.hostname";

    private final Registry registry;
    private final RMIConnectorServer server;
    private final JMXServiceURL url;
    /** True when this connector set {@value #HOSTNAME_PROPERTY}, which {@link #close()} then clears. */
    private final boolean setHostname;

    private RemoteJmx(Registry registry, RMIConnectorServer server, JMXServiceURL url, boolean setHostname) {
        this.registry = registry;
        this.server = server;
        this.url = url;
        this.setHostname = setHostname;
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
     * {@code java.rmi.server.hostname}, the address written into the connector's stub is the bind address (set as
     * that property until {@link #close()}); with a wildcard bind it is the JVM's {@code InetAddress.getLocalHost()}
     * (127.0.1.1 on Debian-style hosts): behind NAT, in a container or with a wildcard bind set
     * {@code -Djava.rmi.server.hostname}. Nothing stays open when it throws.
     */
    public static RemoteJmx start(JmxConfig cfg, MBeanServer mbs) throws IOException {
        check(cfg);
        String bind = cfg.bind().startsWith("[") && cfg.bind().endsWith("]")
                ? cfg.bind().substring(1, cfg.bind().length() - 1) : cfg.bind();
        InetAddress address = InetAddress.getByName(bind);
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        boolean setHostname = System.getProperty(HOSTNAME_PROPERTY) == null && !address.isAnyLocalAddress();
        if (setHostname) {
            System.setProperty(HOSTNAME_PROPERTY, bind);
        }
        Registry registry = null;
        RMIConnectorServer server = null;
        try {
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
            registry = LocateRegistry.createRegistry(cfg.port(), csf, ssf);
            RMIJRMPServerImpl impl = new RMIJRMPServerImpl(cfg.port(), csf, ssf, env);
            server = new RMIConnectorServer(new JMXServiceURL("rmi", host, cfg.port()), env, impl, mbs);
            server.setMBeanServerForwarder(LogrouterOnly.create());
            server.start();
            registry.rebind("jmxrmi", impl.toStub());
            return new RemoteJmx(registry, server,
                    new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + cfg.port() + "/jmxrmi"),
                    setHostname);
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                try {
                    server.stop();
                } catch (IOException ignored) {
                    // the failure being reported matters more
                }
            }
            if (registry != null) {
                UnicastRemoteObject.unexportObject(registry, true);
            }
            if (setHostname) {
                System.clearProperty(HOSTNAME_PROPERTY);
            }
            throw e;
        }
    }

    /**
     * What remote clients may do: read anything (the JVM's own MBeans too), invoke operations of logrouter's
     * MBeans only, and never create, register or unregister MBeans or set attributes. Without it a remote client
     * could load code into the router (an MLet), dump its heap or load an agent (DiagnosticCommand). The JDK's
     * access-file controller, when configured, sits in front of this one.
     */
    static final class LogrouterOnly implements InvocationHandler {
        private static final Set<String> REFUSED = Set.of("createMBean", "registerMBean", "unregisterMBean",
                "instantiate", "deserialize", "setAttribute", "setAttributes");
        private MBeanServer next;

        static MBeanServerForwarder create() {
            return (MBeanServerForwarder) Proxy.newProxyInstance(MBeanServerForwarder.class.getClassLoader(),
                    new Class<?>[] {MBeanServerForwarder.class}, new LogrouterOnly());
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("getMBeanServer")) {
                return next;
            }
            if (name.equals("setMBeanServer")) {
                next = (MBeanServer) args[0];
                return null;
            }
            if (REFUSED.contains(name)) {
                throw new SecurityException("logrouter's remote JMX does not allow " + name);
            }
            if (name.equals("invoke") && !MetricRegistry.DOMAIN.equals(((ObjectName) args[0]).getDomain())) {
                throw new SecurityException("logrouter's remote JMX invokes operations of " + MetricRegistry.DOMAIN
                        + " MBeans only, not of " + args[0]);
            }
            try {
                return method.invoke(next, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** The server context of {@code tls}: its key store, and its trust store when given. Any thread. */
    public static SSLContext sslContext(JmxTlsConfig tls) throws IOException, GeneralSecurityException {
        char[] password = tls.keystorePassword().toCharArray();
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(tls.keystore(), tls.keystoreType(), password), password);
        TrustManagerFactory tmf = null;
        if (tls.truststore() != null) {
            tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            // the trust store's type is found from its content (PKCS12 or JKS), whatever the key store's is
            tmf.init(KeyStore.getInstance(new java.io.File(tls.truststore()),
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
            LOG.log(Level.WARNING, "stopping remote JMX: " + e);
        }
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException ignored) {
            // already closed
        }
        if (setHostname) {
            System.clearProperty(HOSTNAME_PROPERTY);
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
