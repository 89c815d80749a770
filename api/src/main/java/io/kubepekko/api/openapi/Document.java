package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One served OpenAPI document: its compact JSON bytes and the hash that names this exact content.
 *
 * <p>The hash is the upper-case hex SHA-512 of the bytes, as kube-openapi computes it, so the value
 * in a {@code ?hash=} query, the strong {@code ETag} and the content can never disagree.
 */
public final class Document {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private final byte[] json;
    private final String hash;

    private Document(byte[] json) {
        this.json = json;
        this.hash = HEX.formatHex(sha512(json));
    }

    /** Serializes {@code node} compactly; the tree is not retained. */
    static Document of(JsonNode node) {
        return new Document(Json.bytes(node));
    }

    /** The JSON bytes (a copy: documents are shared by every request). */
    public byte[] json() {
        return json.clone();
    }

    public int length() {
        return json.length;
    }

    /** Upper-case hex SHA-512 of {@link #json()}: the {@code hash} query value. */
    public String hash() {
        return hash;
    }

    /** The strong entity tag: the hash in double quotes. */
    public String etag() {
        return '"' + hash + '"';
    }

    /**
     * Whether an {@code If-None-Match} header value names this document, so the answer can be
     * {@code 304 Not Modified}. Accepts {@code *}, comma-separated lists and weak tags, because
     * If-None-Match compares weakly (RFC 9110 §13.1.2).
     */
    public boolean matchesIfNoneMatch(String header) {
        if (header == null) {
            return false;
        }
        for (String candidate : header.split(",")) {
            String tag = candidate.strip();
            if (tag.equals("*")) {
                return true;
            }
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals(etag())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Document d && Arrays.equals(json, d.json);
    }

    @Override
    public int hashCode() {
        return hash.hashCode();
    }

    @Override
    public String toString() {
        return "Document[" + json.length + " bytes, hash=" + hash.substring(0, 12) + "…]";
    }

    private static byte[] sha512(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-512").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-512 (MessageDigest Javadoc), so this cannot
            // happen.
            throw new IllegalStateException(e);
        }
    }
}
