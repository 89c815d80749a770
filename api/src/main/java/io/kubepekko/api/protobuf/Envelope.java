package io.kubepekko.api.protobuf;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.kubepekko.api.status.ApiStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Kubernetes' protobuf envelope: the magic {@code k8s\0}, then a {@code runtime.Unknown} message
 * ({@code typeMeta{apiVersion, kind}} = 1, {@code raw} = 2, {@code contentEncoding} = 3, {@code
 * contentType} = 4) whose {@code raw} is the object's message.
 */
public final class Envelope {
    private Envelope() {}

    /** The four bytes every protobuf body starts with. */
    public static final byte[] MAGIC = {0x6b, 0x38, 0x73, 0x00};

    /** The decoded envelope. */
    public record Unknown(
            String apiVersion,
            String kind,
            byte[] raw,
            String contentEncoding,
            String contentType) {}

    /** Whether {@code body} starts with the magic prefix. */
    public static boolean hasMagic(byte[] body) {
        return body.length >= MAGIC.length
                && Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /**
     * Opens a body; without the magic prefix, or malformed, it is a 400 as kube-apiserver answers.
     */
    public static Unknown decode(byte[] body) {
        if (!hasMagic(body)) {
            throw ApiStatus.badRequest(
                            "the object provided is unrecognized ("
                                    + summary(body)
                                    + ": provided data does not appear to be a protobuf message, expected prefix [107 56 115 0])")
                    .exception();
        }
        try {
            CodedInputStream in =
                    CodedInputStream.newInstance(body, MAGIC.length, body.length - MAGIC.length);
            String apiVersion = "";
            String kind = "";
            byte[] raw = new byte[0];
            String encoding = "";
            String contentType = "";
            while (true) {
                int tag = in.readTag();
                if (tag == 0) {
                    break;
                }
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case 1 -> {
                        CodedInputStream tm = CodedInputStream.newInstance(in.readByteArray());
                        while (true) {
                            int t = tm.readTag();
                            if (t == 0) {
                                break;
                            }
                            switch (WireFormat.getTagFieldNumber(t)) {
                                case 1 -> apiVersion = tm.readString();
                                case 2 -> kind = tm.readString();
                                default -> tm.skipField(t);
                            }
                        }
                    }
                    case 2 -> raw = in.readByteArray();
                    case 3 -> encoding = in.readString();
                    case 4 -> contentType = in.readString();
                    default -> in.skipField(tag);
                }
            }
            return new Unknown(apiVersion, kind, raw, encoding, contentType);
        } catch (IOException e) {
            throw ApiStatus.badRequest(
                            "the object provided is unrecognized ("
                                    + summary(body)
                                    + ": "
                                    + e.getMessage()
                                    + ")")
                    .exception();
        }
    }

    /** Wraps an object's message bytes in the envelope, as Kubernetes writes it. */
    public static byte[] encode(String apiVersion, String kind, byte[] raw) {
        try {
            byte[] typeMeta = typeMeta(apiVersion, kind);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length + 64);
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            writeHead(out, typeMeta, raw.length);
            out.writeRawBytes(raw);
            writeTail(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code typeMeta} message of an envelope. */
    static byte[] typeMeta(String apiVersion, String kind) {
        try {
            ByteArrayOutputStream typeMeta = new ByteArrayOutputStream();
            CodedOutputStream tm = CodedOutputStream.newInstance(typeMeta);
            tm.writeString(1, apiVersion);
            tm.writeString(2, kind);
            tm.flush();
            return typeMeta.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The length of an envelope around {@code rawLength} bytes of message. */
    static long length(byte[] typeMeta, long rawLength) {
        return MAGIC.length
                + fieldLength(1, typeMeta.length)
                + fieldLength(2, rawLength)
                + TAIL_LENGTH;
    }

    /**
     * The length of a length-delimited field of {@code length} bytes, with its tag and length
     * prefix.
     */
    static long fieldLength(int number, long length) {
        return CodedOutputStream.computeTagSize(number)
                + CodedOutputStream.computeUInt64SizeNoTag(length)
                + length;
    }

    /**
     * The magic, the type and the {@code raw} field's tag and length: what comes before the
     * message.
     */
    static void writeHead(CodedOutputStream out, byte[] typeMeta, long rawLength)
            throws IOException {
        out.writeRawBytes(MAGIC);
        out.writeByteArray(1, typeMeta);
        out.writeTag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt64NoTag(rawLength);
    }

    /**
     * What follows the message: empty {@code contentEncoding} and {@code contentType}, as
     * Kubernetes writes them.
     */
    static void writeTail(CodedOutputStream out) throws IOException {
        out.writeString(3, "");
        out.writeString(4, "");
    }

    private static final int TAIL_LENGTH = 4;

    /** The first bytes of a body, as kube's error summaries show them. */
    private static String summary(byte[] body) {
        String text = new String(body, 0, Math.min(body.length, 30), StandardCharsets.UTF_8);
        return body.length > 30 ? text + " ..." : text;
    }
}
