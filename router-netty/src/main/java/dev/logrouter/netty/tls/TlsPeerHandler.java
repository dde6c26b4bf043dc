package dev.logrouter.netty.tls;

import dev.logrouter.core.event.FieldName;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.netty.Peer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.auth.x500.X500Principal;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * Sits behind the {@link SslHandler} of a connection: counts handshakes and their failures, and once the
 * handshake is done gives the connection's {@link Peer} the client certificate's subject, so that every event
 * of the connection carries it. The field names are syslog-ng's: {@code .tls.x509_cn}, {@code .tls.x509_o},
 * {@code .tls.x509_ou} (the most specific of each in the subject), and {@code .tls.x509_subject} (the whole
 * subject, RFC 2253). Without a client certificate none is set. Names under {@code .tls.} are reserved: parsers
 * cannot create or replace them from message content ({@code FieldTable}). TLS errors are counted here and the
 * connection closed; they do not reach the publish handler.
 *
 * <p>Threads: one instance per channel, on its event loop.
 */
public final class TlsPeerHandler extends ChannelInboundHandlerAdapter {

    /** The fields set from the client certificate, in this order. */
    public static final FieldName[] FIELDS = {field("x509_cn"), field("x509_o"), field("x509_ou"),
            field("x509_subject")};

    private static FieldName field(String name) {
        return FieldName.of(FieldTable.RESERVED_PREFIX + name);
    }

    private final TlsCounters counters;
    private final Peer peer;
    private boolean handshaken;

    public TlsPeerHandler(TlsCounters counters, Peer peer) {
        this.counters = counters;
        this.peer = peer;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                handshaken = true;
                counters.handshakes.inc();
                String[] subject = subjectValues(ctx.pipeline().get(SslHandler.class));
                if (subject != null) {
                    peer.setFields(FIELDS, subject);
                }
            } else {
                counters.handshakeFailures.inc();
                counters.lastError = ctx.channel().remoteAddress() + ": handshake failed: " + done.cause();
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (isTls(cause)) {
            if (handshaken) { // a handshake failure was counted with its completion event
                counters.errors.inc();
                counters.lastError = ctx.channel().remoteAddress() + ": " + cause;
            }
            ctx.close();
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private static boolean isTls(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * CN, O, OU (null when the subject has none) and the whole subject of the client certificate; null when there is
     * no client certificate (and without asking the engine when client-auth is none).
     */
    static String[] subjectValues(SslHandler ssl) {
        SSLEngine engine = ssl.engine();
        if (!engine.getNeedClientAuth() && !engine.getWantClientAuth()) {
            return null;
        }
        Certificate[] chain;
        try {
            chain = engine.getSession().getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null; // client-auth optional without a certificate
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate cert)) {
            return null;
        }
        String[] values = new String[FIELDS.length];
        String dn = cert.getSubjectX500Principal().getName(X500Principal.RFC2253);
        values[3] = dn;
        try {
            // RFC 2253 writes the most specific RDN first; LdapName lists them the other way round
            for (Rdn rdn : new LdapName(dn).getRdns()) {
                switch (rdn.getType().toUpperCase(java.util.Locale.ROOT)) {
                    case "CN" -> values[0] = String.valueOf(rdn.getValue());
                    case "O" -> values[1] = String.valueOf(rdn.getValue());
                    case "OU" -> values[2] = String.valueOf(rdn.getValue());
                    default -> {
                    }
                }
            }
        } catch (InvalidNameException e) {
            // the JDK printed it, so it parses; if not, the whole subject is still there
        }
        return values;
    }
}
