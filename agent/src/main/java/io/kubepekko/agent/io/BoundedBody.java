package io.kubepekko.agent.io;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read up to a limit: the first {@code limit} bytes are kept; once a byte past them
 * arrives the subscription is cancelled (the download stops) and the body completes as {@linkplain
 * Read#truncated() truncated}. A peer answering an endless or huge body cannot make the agent hold
 * more than the limit. Callers decide what a truncated body means: a probe uses its start (the
 * kubelet's {@code maxRespBodyLength}), a manifest source refuses it.
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<BoundedBody.Read> {
    /**
     * What was read.
     *
     * @param bytes at most the limit's worth
     * @param truncated whether the body went on past them
     */
    public record Read(byte[] bytes, boolean truncated) {}

    private final int limit;
    private final ByteArrayOutputStream read = new ByteArrayOutputStream();
    private final CompletableFuture<Read> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int limit) {
        this.limit = limit;
    }

    /** A body handler keeping at most {@code limit} bytes of each response. */
    public static HttpResponse.BodyHandler<Read> handler(int limit) {
        return info -> new BoundedBody(limit);
    }

    @Override
    public CompletionStage<Read> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer b : buffers) {
            int n = Math.min(b.remaining(), limit - read.size());
            byte[] chunk = new byte[n];
            b.get(chunk);
            read.writeBytes(chunk);
            if (b.hasRemaining()) {
                subscription.cancel();
                body.complete(new Read(read.toByteArray(), true));
                return;
            }
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        body.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        body.complete(new Read(read.toByteArray(), false));
    }
}
