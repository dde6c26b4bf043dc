package dev.logrouter.netty.tls;

/** {@link TlsSourceTest} with the JDK's TLS. */
class JdkTlsSourceTest extends TlsSourceTest {

    @Override
    TlsConfig.Provider provider() {
        return TlsConfig.Provider.jdk;
    }
}
