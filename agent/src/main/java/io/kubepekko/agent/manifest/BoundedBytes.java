package io.kubepekko.agent.manifest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Manifest input read with a cap: at most {@code limit + 1} bytes are ever held, so a huge file or response body
 * cannot exhaust the heap. Empty means larger than the limit (the rest is never read).
 */
public final class BoundedBytes {
    private BoundedBytes() {}

    /** The largest manifest (file, URL body, posted body) the agent reads: 10 MiB. */
    public static final int MAX_MANIFEST_BYTES = 10 * 1024 * 1024;

    /** The file's bytes, or empty when it holds more than {@code limit} bytes. */
    public static Optional<byte[]> readFile(Path file, int limit) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] data = in.readNBytes(limit + 1); // grows as it reads: a small file costs little
            return data.length > limit ? Optional.empty() : Optional.of(data);
        }
    }

    /** A response body handler keeping at most {@code limit} bytes; past that it cancels the download. */
    public static HttpResponse.BodyHandler<Optional<byte[]>> bodyHandler(int limit) {
        return info -> new Subscriber(limit);
    }

    /** Why a manifest over {@code limit} is refused (its origin is named with it, {@link ManifestError}). */
    public static String tooLarge(int limit) {
        return "larger than the limit of " + limit + " bytes (" + describe(limit) + "): not read";
    }

    private static String describe(int limit) {
        return limit % (1024 * 1024) == 0 ? limit / (1024 * 1024) + " MiB" : limit + " B";
    }

    private static final class Subscriber implements HttpResponse.BodySubscriber<Optional<byte[]>> {
        private final int limit;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final CompletableFuture<Optional<byte[]>> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        Subscriber(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<Optional<byte[]>> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : buffers) {
                if (out.size() + b.remaining() > limit) {
                    result.complete(Optional.empty());
                    subscription.cancel();
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                out.writeBytes(chunk);
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(Optional.of(out.toByteArray()));
        }
    }
}
