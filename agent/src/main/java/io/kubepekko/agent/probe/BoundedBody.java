package io.kubepekko.agent.probe;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read up to a limit: the first {@code limit} bytes, after which the subscription is cancelled (the
 * connection is dropped) and the body completes with what was read. Keeps a probe of a container that answers an
 * endless or huge body from holding more than the limit.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final int limit;
    private final ByteArrayOutputStream read = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    BoundedBody(int limit) {
        this.limit = limit;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer b : buffers) {
            int n = Math.min(b.remaining(), limit - read.size());
            byte[] chunk = new byte[n];
            b.get(chunk);
            read.write(chunk, 0, n);
        }
        if (read.size() >= limit) {
            subscription.cancel();
            body.complete(read.toByteArray());
        } else {
            subscription.request(1);
        }
    }

    @Override
    public void onError(Throwable t) {
        body.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        body.complete(read.toByteArray());
    }
}
