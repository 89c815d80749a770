package io.kubepekko.api.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Standard base64 decoding with Go's rules and error offsets: line breaks are skipped, padding is
 * required, and a failure names the input byte ({@code illegal base64 data at input byte 4}) as
 * Kubernetes reports it for {@code []byte} fields such as Secret {@code data}.
 */
final class GoBase64 {
    private GoBase64() {}

    /** A decoding failure at a byte offset of the input. */
    static final class CorruptInput extends Exception {
        private static final long serialVersionUID = 1L;

        CorruptInput(int offset) {
            super("illegal base64 data at input byte " + offset, null, false, false);
        }
    }

    private static final byte[] DECODE = new byte[256];

    static {
        Arrays.fill(DECODE, (byte) -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int k = 0; k < alphabet.length(); k++) {
            DECODE[alphabet.charAt(k)] = (byte) k;
        }
    }

    static byte[] decode(String text) throws CorruptInput {
        byte[] src = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(src.length * 3 / 4);
        int si = 0;
        while (true) {
            int[] buf = new int[4];
            int len = 4;
            boolean end = false;
            for (int j = 0; j < 4; j++) {
                if (si == src.length) {
                    if (j == 0) {
                        return out.toByteArray();
                    }
                    throw new CorruptInput(si - j);
                }
                int in = src[si] & 0xff;
                si++;
                if (DECODE[in] >= 0) {
                    buf[j] = DECODE[in];
                    continue;
                }
                if (in == '\n' || in == '\r') {
                    j--;
                    continue;
                }
                if (in != '=') {
                    throw new CorruptInput(si - 1);
                }
                if (j < 2) {
                    throw new CorruptInput(si - 1);
                }
                if (j == 2) {
                    si = skipNewlines(src, si);
                    if (si == src.length) {
                        throw new CorruptInput(src.length);
                    }
                    if (src[si] != '=') {
                        throw new CorruptInput(si - 1);
                    }
                    si++;
                }
                si = skipNewlines(src, si);
                if (si < src.length) {
                    throw new CorruptInput(si);
                }
                len = j;
                end = true;
                break;
            }
            int bits = buf[0] << 18 | buf[1] << 12 | buf[2] << 6 | buf[3];
            out.write(bits >> 16);
            if (len > 2) {
                out.write(bits >> 8 & 0xff);
            }
            if (len > 3) {
                out.write(bits & 0xff);
            }
            if (end) {
                return out.toByteArray();
            }
        }
    }

    private static int skipNewlines(byte[] src, int si) {
        while (si < src.length && (src[si] == '\n' || src[si] == '\r')) {
            si++;
        }
        return si;
    }
}
