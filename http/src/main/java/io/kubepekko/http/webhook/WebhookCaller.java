package io.kubepekko.http.webhook;

import io.kubepekko.http.security.ClientTlsContexts;
import io.kubepekko.http.security.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;

/**
 * Posts AdmissionReviews to webhooks over HTTPS with the JDK's asynchronous client, so no Pekko
 * dispatcher thread waits on a webhook: each call bounded by the webhook's timeout (which the URL
 * tells the webhook, as kube's {@code ?timeout=10s}) and its answer by {@link #MAX_RESPONSE_BYTES}.
 * A webhook's {@code caBundle} is its only trust (one client per bundle, kept); without one the
 * JDK's system trust is used.
 */
public final class WebhookCaller {

    /** The largest answer read; a longer one is a failed call. */
    public static final int MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

    private final ConcurrentHashMap<String, HttpClient> clients = new ConcurrentHashMap<>();

    /** What one call came to. */
    public sealed interface Outcome {}

    /** The webhook answered 200 with {@code body}. */
    public record Answered(byte[] body) implements Outcome {}

    /** No usable answer: kube's {@code failed to call webhook: <reason>} reason. */
    public record Failed(String reason) implements Outcome {}

    /**
     * Where a call goes.
     *
     * @param url the URL posted to, as kube names it in its errors (a Service's {@code
     *     https://<name>.<namespace>.svc:<port>/<path>})
     * @param address the URL actually connected to (a Service's resolved endpoint), or {@code null}
     *     for {@code url} itself
     * @param serverName the TLS name the certificate must carry when it is not {@code url}'s host
     * @param unresolved why there is nowhere to connect to (kube's dial error), or {@code null}
     */
    public record Target(String url, String address, String serverName, String unresolved) {
        /** A webhook's own {@code url}. */
        public static Target url(String url) {
            return new Target(url, null, null, null);
        }
    }

    /** POSTs {@code review} to {@code url}; never fails the stage. */
    public CompletionStage<Outcome> call(
            String url, byte[] caBundle, int timeoutSeconds, byte[] review) {
        return call(Target.url(url), caBundle, timeoutSeconds, review);
    }

    /** POSTs {@code review} to {@code target}; never fails the stage. */
    public CompletionStage<Outcome> call(
            Target target, byte[] caBundle, int timeoutSeconds, byte[] review) {
        String query = (target.url().contains("?") ? "&" : "?") + "timeout=" + timeoutSeconds + "s";
        String post = "Post \"" + target.url() + query + "\": ";
        if (target.unresolved() != null) {
            return CompletableFuture.completedFuture(new Failed(post + target.unresolved()));
        }
        String connected = (target.address() == null ? target.url() : target.address()) + query;
        HttpClient client;
        HttpRequest request;
        try {
            client =
                    target.serverName() != null
                            ? serviceClientFor(caBundle, target.serverName())
                            : caBundle.length == 0 ? systemTrust() : clientFor(caBundle);
            request =
                    HttpRequest.newBuilder(URI.create(connected))
                            .timeout(Duration.ofSeconds(timeoutSeconds))
                            .header("Content-Type", "application/json")
                            .header("Accept", "application/json, */*")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(review))
                            .build();
        } catch (IOException | IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new Failed(post + e.getMessage()));
        } catch (UncheckedIOException e) {
            // The JDK's client could not be made (its selector: no file descriptor left).
            return CompletableFuture.completedFuture(new Failed(post + e.getCause().getMessage()));
        }
        return client.sendAsync(request, info -> new Bounded(MAX_RESPONSE_BYTES))
                .orTimeout(timeoutSeconds + 1L, TimeUnit.SECONDS)
                .handle(
                        (response, error) -> {
                            if (error != null) {
                                return new Failed(post + reason(error, request.uri()));
                            }
                            if (response.statusCode() != 200) {
                                return new Failed(status(response.statusCode(), response.body()));
                            }
                            return (Outcome) new Answered(response.body());
                        });
    }

    /**
     * A client for a Service's endpoints: trusting the bundle (else the system) for certificates
     * naming {@code serverName}, which it also sends as SNI (kube's TLS ServerName).
     */
    private HttpClient serviceClientFor(byte[] caBundle, String serverName) throws IOException {
        String key = serverName + "|" + Base64.getEncoder().encodeToString(caBundle);
        HttpClient cached = clients.get(key);
        if (cached != null) {
            return cached;
        }
        List<X509Certificate> cas = List.of();
        if (caBundle.length > 0) {
            cas = Pem.certificates(new String(caBundle, StandardCharsets.UTF_8), "caBundle");
            if (cas.isEmpty()) {
                throw new IOException("unable to load root certificates: no certificates found");
            }
        }
        SSLContext context;
        try {
            context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {ServiceTrust.of(cas, serverName)}, null);
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "building the webhook client's TLS context: " + e.getMessage(), e);
        }
        SSLParameters parameters = context.getDefaultSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        HttpClient client =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(30))
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .sslContext(context)
                        .sslParameters(parameters)
                        .build();
        return clients.computeIfAbsent(key, k -> client);
    }

    /**
     * The client of webhooks without a {@code caBundle}, kept under the empty bundle's key and made
     * at the first such call, not at the server's start: the JDK's default SSL context it needs
     * loads the system's CA certificates (about 0.2 s of every start's main thread when it was a
     * constant). One that could not be made is tried again at the next call.
     */
    private HttpClient systemTrust() {
        return clients.computeIfAbsent("", k -> client(null));
    }

    private HttpClient clientFor(byte[] caBundle) throws IOException {
        String key = Base64.getEncoder().encodeToString(caBundle);
        HttpClient cached = clients.get(key);
        if (cached != null) {
            return cached;
        }
        List<X509Certificate> cas =
                Pem.certificates(new String(caBundle, StandardCharsets.UTF_8), "caBundle");
        if (cas.isEmpty()) {
            throw new IOException("unable to load root certificates: no certificates found");
        }
        SSLContext context = ClientTlsContexts.of(cas, List.of(), null);
        // A few distinct bundles at most in a cluster; the map is bounded by the configurations.
        return clients.computeIfAbsent(key, k -> client(context));
    }

    private static HttpClient client(SSLContext context) {
        HttpClient.Builder b =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(30))
                        .followRedirects(HttpClient.Redirect.NEVER);
        if (context != null) {
            b.sslContext(context);
        }
        return b.build();
    }

    /** Go's words for the failures Go's client would meet. */
    private static String reason(Throwable error, URI uri) {
        Throwable e =
                error instanceof CompletionException && error.getCause() != null
                        ? error.getCause()
                        : error;
        if (e instanceof HttpTimeoutException || e instanceof TimeoutException) {
            return "context deadline exceeded";
        }
        if (e instanceof ConnectException) {
            int port = uri.getPort() < 0 ? 443 : uri.getPort();
            return "dial tcp " + uri.getHost() + ":" + port + ": connect: connection refused";
        }
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ServiceTrust.NameMismatch m) {
                return "tls: failed to verify certificate: " + m.getMessage();
            }
        }
        if (e instanceof SSLException) {
            return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
        }
        if (e instanceof TooLarge) {
            return e.getMessage();
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }

    /** client-go's error for an answer that is not a 200. */
    private static String status(int code, byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (code >= 500 && !text.isEmpty()) {
            return "an error on the server (\""
                    + text
                    + "\") has prevented the request from succeeding";
        }
        return "the server responded with the status code "
                + code
                + " but did not return more information";
    }

    private static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(int limit) {
            super("response body larger than " + limit + " bytes", null);
        }
    }

    /** Collects the body up to a limit; beyond it the call fails. */
    private static final class Bounded implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final List<ByteBuffer> buffers = new ArrayList<>();
        private int size;
        private Flow.Subscription subscription;

        Bounded(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                size += b.remaining();
                buffers.add(b);
            }
            if (size > limit && !result.isDone()) {
                subscription.cancel();
                buffers.clear();
                result.completeExceptionally(new TooLarge(limit));
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            if (result.isDone()) {
                return;
            }
            byte[] out = new byte[size];
            int at = 0;
            for (ByteBuffer b : buffers) {
                int n = b.remaining();
                b.get(out, at, n);
                at += n;
            }
            result.complete(out);
        }
    }
}
