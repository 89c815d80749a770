package io.kubepekko.agent.manifest;

import io.kubepekko.agent.io.BoundedBody;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Manifest input read with a cap: at most {@code limit + 1} bytes are ever held, so a huge file or
 * response body cannot exhaust the heap. Empty means larger than the limit (the rest is never
 * read).
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

    /**
     * A response body handler keeping at most {@code limit} bytes; past that it cancels the
     * download.
     */
    public static HttpResponse.BodyHandler<Optional<byte[]>> bodyHandler(int limit) {
        return info ->
                HttpResponse.BodySubscribers.mapping(
                        BoundedBody.handler(limit).apply(info),
                        read ->
                                read.truncated()
                                        ? Optional.<byte[]>empty()
                                        : Optional.of(read.bytes()));
    }

    /**
     * Why a manifest over {@code limit} is refused (its origin is named with it, {@link
     * ManifestError}).
     */
    public static String tooLarge(int limit) {
        return "larger than the limit of " + limit + " bytes (" + describe(limit) + "): not read";
    }

    private static String describe(int limit) {
        return limit % (1024 * 1024) == 0 ? limit / (1024 * 1024) + " MiB" : limit + " B";
    }
}
