package io.kubepekko.http.route;

import io.kubepekko.actors.Futures;
import io.kubepekko.api.status.ApiStatus;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.RequestEntity;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;

/** Reads a resource request's body whole, within Kubernetes' limit: 413 past it. */
final class RequestBodyReader {

    /** Kubernetes' request body limit. */
    static final long MAX_BODY_BYTES = 3 * 1024 * 1024;

    /** Bodies up to this size are read and dropped before a 413, so the client sees the answer. */
    private static final long DRAIN_TOO_LARGE_UP_TO = 16L * 1024 * 1024;

    private final Materializer materializer;

    RequestBodyReader(Materializer materializer) {
        this.materializer = materializer;
    }

    /** The body as one piece, or failed with 413 when its announced length is over the limit. */
    CompletionStage<HttpEntity.Strict> read(RequestEntity entity) {
        long length = entity.getContentLengthOption().orElse(0L);
        if (length > MAX_BODY_BYTES) {
            return refuseUnread(entity, length);
        }
        return strictEntity(entity);
    }

    /**
     * A 413 for a body over the limit. Answering while the client is still sending can reset the
     * connection before it reads the answer, so a moderately large body is read and dropped first,
     * as Go's server also reads some of an unread body before closing.
     */
    private CompletionStage<HttpEntity.Strict> refuseUnread(RequestEntity entity, long length) {
        if (length > DRAIN_TOO_LARGE_UP_TO) {
            return CompletableFuture.failedFuture(tooLarge().exception());
        }
        return entity.withoutSizeLimit()
                .getDataBytes()
                .runWith(Sink.ignore(), materializer)
                .handle(
                        (done, failure) -> {
                            throw tooLarge().exception();
                        });
    }

    /**
     * The body as one piece. Most requests arrive whole: those are used as they are, because {@code
     * toStrict} on an already strict entity still materializes a stream (about a tenth of the CPU
     * of a small write).
     */
    private CompletionStage<HttpEntity.Strict> strictEntity(RequestEntity entity) {
        if (entity instanceof HttpEntity.Strict strict) {
            return CompletableFuture.completedFuture(strict);
        }
        return Futures.plain(entity.toStrict(30_000, MAX_BODY_BYTES, materializer));
    }

    /** Kubernetes' 413 for a body over the limit. */
    static ApiStatus tooLarge() {
        return ApiStatus.requestEntityTooLarge(
                "the request body is larger than " + MAX_BODY_BYTES + " bytes");
    }
}
