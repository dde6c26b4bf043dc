package dev.logrouter.netty.tls;

/** {@link TlsSourceTest} with BoringSSL through netty-tcnative. */
class OpenSslTlsSourceTest extends TlsSourceTest {

    @Override
    TlsConfig.Provider provider() {
        return TlsConfig.Provider.openssl;
    }
}
