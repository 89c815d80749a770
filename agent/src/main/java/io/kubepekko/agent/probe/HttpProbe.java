package io.kubepekko.agent.probe;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.io.BoundedBody;
import io.kubepekko.api.status.Failures;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * An {@code httpGet} probe as the kubelet's (pkg/probe/http: {@code NewRequestForHTTPGetAction},
 * {@code DoHTTPProbe}, {@code RedirectChecker(false)}): a GET to {@code scheme://host:port/path}
 * (host defaults to the pod's IP, the port by number or container port name), with the probe's
 * {@code httpHeaders}, {@code User-Agent: kube-probe/1.35} and {@code Accept: *}{@code /*} unless
 * given. HTTPS skips certificate and host name checks. 2xx passes; a redirect to the same host is
 * followed (at most 10), one to another host is not and its 3xx passes (the kubelet's "Probe
 * terminated redirects" warning); anything else, or no answer within the timeout, fails.
 *
 * <p>A {@code Host} header among {@code httpHeaders} is the request's host, as the kubelet's {@code
 * req.Host}: the JDK client sends it only in a JVM started with {@code
 * jdk.httpclient.allowRestrictedHeaders=host} ({@link #HOST_HEADER_PROPERTY}, which the agent's
 * main sets first thing); elsewhere it is left out. At most 10 KiB of the body are read, the rest
 * is dropped (the kubelet's {@code maxRespBodyLength} and its "non fatal body truncation"): a
 * container answering without end cannot fill the agent's heap.
 *
 * <p>Not as the kubelet: the JDK client may reuse a connection where the kubelet opens a new one
 * per probe.
 */
public final class HttpProbe {
    private HttpProbe() {}

    /**
     * The kube version the probe's User-Agent names (the one the agent reports as kubeletVersion's
     * minor).
     */
    public static final String USER_AGENT = "kube-probe/1.35";

    private static final int MAX_REDIRECTS = 10;

    /** The most of a response body a probe reads, as the kubelet's {@code maxRespBodyLength}. */
    static final int MAX_BODY_BYTES = 10 * 1024;

    /**
     * The JDK client's switch that lets a request carry a {@code Host} header; read once, when the
     * client loads.
     */
    public static final String HOST_HEADER_PROPERTY = "jdk.httpclient.allowRestrictedHeaders";

    /** Headers the JDK client will not let a caller set ({@code Host} is handled on its own). */
    private static final Set<String> RESTRICTED =
            Set.of("connection", "content-length", "expect", "upgrade");

    private static final class Shared {
        static final HttpClient CLIENT =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .followRedirects(
                                HttpClient.Redirect.NEVER) // followed here, by the kubelet's rule
                        .sslContext(trustingEverything())
                        .build();
    }

    /**
     * Runs the probe.
     *
     * @param httpGet the probe's {@code httpGet}
     * @param container the container (its {@code ports}, for a named port)
     * @param podIp the pod's IP, the host when {@code httpGet.host} is empty
     */
    public static CompletionStage<ProbeOutcome> run(
            JsonNode httpGet, JsonNode container, String podIp, Duration timeout) {
        ProbePort.Resolved port = ProbePort.resolve(httpGet.path("port"), container);
        if (port instanceof ProbePort.Resolved.Invalid invalid) {
            return CompletableFuture.completedFuture(ProbeOutcome.error(invalid.message()));
        }
        String scheme = httpGet.path("scheme").asText("").toLowerCase(Locale.ROOT);
        String host = httpGet.path("host").asText("");
        URI uri;
        try {
            uri =
                    url(
                            scheme.isEmpty() ? "http" : scheme,
                            host.isEmpty() ? podIp : host,
                            ((ProbePort.Resolved.Port) port).number(),
                            httpGet.path("path").asText(""));
        } catch (URISyntaxException e) {
            return CompletableFuture.completedFuture(ProbeOutcome.failure(e.getMessage()));
        }
        HttpRequest.Builder template = HttpRequest.newBuilder().GET().timeout(timeout);
        boolean userAgent = false;
        boolean accept = false;
        for (JsonNode h : httpGet.path("httpHeaders")) {
            String name = h.path("name").asText("");
            String lower = name.toLowerCase(Locale.ROOT);
            userAgent |= lower.equals("user-agent");
            if (lower.equals("accept")) {
                accept = true;
                if (h.path("value").asText("").isEmpty()) {
                    continue; // an empty Accept removes the default
                }
            }
            if (!name.isEmpty() && !RESTRICTED.contains(lower)) {
                try {
                    template.header(name, h.path("value").asText(""));
                } catch (IllegalArgumentException notAllowed) {
                    // Host in a JVM without HOST_HEADER_PROPERTY, or a name the client refuses:
                    // sent without it.
                }
            }
        }
        if (!userAgent) {
            template.header("User-Agent", USER_AGENT);
        }
        if (!accept) {
            template.header("Accept", "*/*");
        }
        return get(template, uri, uri, 0)
                .completeOnTimeout(
                        ProbeOutcome.failure(
                                "Get \""
                                        + uri
                                        + "\": context deadline exceeded"
                                        + " (Client.Timeout exceeded while awaiting headers)"),
                        timeout.toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    private static CompletableFuture<ProbeOutcome> get(
            HttpRequest.Builder template, URI first, URI uri, int redirects) {
        HttpRequest request = template.copy().uri(uri).build();
        return Shared.CLIENT
                .sendAsync(request, BoundedBody.handler(MAX_BODY_BYTES))
                .handle(
                        (response, failure) -> {
                            if (failure != null) {
                                return CompletableFuture.completedFuture(
                                        ProbeOutcome.failure(
                                                "Get \"" + uri + "\": " + goError(failure, uri)));
                            }
                            int code = response.statusCode();
                            String body =
                                    new String(response.body().bytes(), StandardCharsets.UTF_8);
                            if (code >= 300 && code < 400 && code != 304) {
                                var location = response.headers().firstValue("Location");
                                if (location.isPresent()) {
                                    URI next;
                                    try {
                                        next = uri.resolve(location.get());
                                    } catch (IllegalArgumentException e) {
                                        return CompletableFuture.completedFuture(
                                                ProbeOutcome.failure(
                                                        "Get \""
                                                                + uri
                                                                + "\": failed to parse Location header \""
                                                                + location.get()
                                                                + "\""));
                                    }
                                    if (sameHost(first, next)) {
                                        if (redirects + 1 >= MAX_REDIRECTS) {
                                            return CompletableFuture.completedFuture(
                                                    ProbeOutcome.failure(
                                                            "Get \""
                                                                    + next
                                                                    + "\": stopped after 10 redirects"));
                                        }
                                        return get(template, first, next, redirects + 1);
                                    }
                                }
                            }
                            return CompletableFuture.completedFuture(outcome(code, body));
                        })
                .thenCompose(f -> f);
    }

    /** {@code DoHTTPProbe}'s verdict on the last response. */
    static ProbeOutcome outcome(int code, String body) {
        if (code >= 200 && code < 400) {
            return ProbeOutcome.success(
                    code >= 300 ? "Probe terminated redirects, Response body: " + body : body);
        }
        return ProbeOutcome.failure("HTTP probe failed with statuscode: " + code);
    }

    private static boolean sameHost(URI a, URI b) {
        return a.getHost() != null
                && b.getHost() != null
                && a.getHost().equalsIgnoreCase(b.getHost());
    }

    static URI url(String scheme, String host, int port, String path) throws URISyntaxException {
        String p = path.isEmpty() || path.startsWith("/") ? path : "/" + path;
        return new URI(scheme + "://" + ProbeAddresses.hostPort(host, port) + p);
    }

    private static String goError(Throwable failure, URI uri) {
        Throwable t = Failures.unwrap(failure);
        String address = ProbeAddresses.hostPort(uri.getHost(), uri.getPort());
        if (t instanceof HttpConnectTimeoutException || t instanceof HttpTimeoutException) {
            return "context deadline exceeded (Client.Timeout exceeded while awaiting headers)";
        }
        if (t instanceof ConnectException || (t.getCause() instanceof ConnectException)) {
            return "dial tcp " + address + ": connect: connection refused";
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** The kubelet's {@code InsecureSkipVerify}: no chain and no host name checks. */
    private static SSLContext trustingEverything() {
        TrustManager all =
                new X509ExtendedTrustManager() {
                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a, Socket s) {}

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a, Socket s) {}

                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a, SSLEngine e) {}

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a, SSLEngine e) {}

                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a) {}

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a) {}

                    @Override
                    public X509Certificate[] getAcceptedIssuers() {
                        return new X509Certificate[0];
                    }
                };
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {all}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JVM", e);
        }
    }
}
