package io.kubepekko.api.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One rendered discovery response: its compact JSON bytes, the Content-Type to send them with, and
 * a strong ETag derived from the bytes, so equal documents always carry equal tags and any change
 * in content changes the tag. Immutable.
 */
public final class DiscoveryDocument {
    private final byte[] bytes;
    private final String contentType;
    private final String etag;

    private DiscoveryDocument(byte[] bytes, String contentType) {
        this.bytes = bytes;
        this.contentType = contentType;
        this.etag = '"' + HexFormat.of().formatHex(sha256(bytes)) + '"';
    }

    /** Renders {@code body} compactly; the ETag is computed once, here. */
    public static DiscoveryDocument of(JsonNode body, String contentType) {
        return new DiscoveryDocument(Json.bytes(body), contentType);
    }

    /** A copy of the body bytes (callers may not change the shared document). */
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    /** The exact Content-Type header value for this body. */
    public String contentType() {
        return contentType;
    }

    /** The strong entity tag, quotes included: {@code "<sha-256 hex>"}. */
    public String etag() {
        return etag;
    }

    /**
     * Whether an {@code If-None-Match} header value matches this document, so a 304 may be sent.
     * Uses the weak comparison RFC 9110 prescribes for If-None-Match: a {@code W/} prefix is
     * ignored, and {@code *} matches any current document.
     */
    public boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*")) {
                return true;
            }
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals(etag)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DiscoveryDocument d
                && d.contentType.equals(contentType)
                && Arrays.equals(d.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return 31 * contentType.hashCode() + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return contentType + " " + etag + " (" + bytes.length + " bytes)";
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}
