package io.kyma.operator.manager.secure;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * The few DER encodings a self-signed certificate and a PKCS#8 key wrapper need (X.690), and a reader for the one
 * structure read back (SEC 1's EC private key). Values are built bottom-up as byte arrays.
 */
final class Der {
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OID = 0x06;
    static final int UTF8_STRING = 0x0c;
    static final int UTC_TIME = 0x17;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;

    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private Der() {}

    static byte[] tlv(int tag, byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            content.writeBytes(part);
        }
        int length = content.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.write(tag);
        if (length < 0x80) {
            out.write(length);
        } else {
            byte[] bytes = BigInteger.valueOf(length).toByteArray();
            int skip = bytes[0] == 0 ? 1 : 0;
            out.write(0x80 | (bytes.length - skip));
            out.write(bytes, skip, bytes.length - skip);
        }
        out.writeBytes(content.toByteArray());
        return out.toByteArray();
    }

    static byte[] sequence(byte[]... parts) {
        return tlv(SEQUENCE, parts);
    }

    static byte[] set(byte[]... parts) {
        return tlv(SET, parts);
    }

    /** A context-specific, constructed tag: {@code [n] EXPLICIT}. */
    static byte[] explicit(int n, byte[]... parts) {
        return tlv(0xa0 | n, parts);
    }

    /** A context-specific, primitive tag: {@code [n] IMPLICIT} over a primitive value. */
    static byte[] implicit(int n, byte[] value) {
        return tlv(0x80 | n, value);
    }

    static byte[] integer(BigInteger value) {
        return tlv(INTEGER, value.toByteArray());
    }

    static byte[] octets(byte[] value) {
        return tlv(OCTET_STRING, value);
    }

    /** A BIT STRING of whole bytes (no unused bits). */
    static byte[] bits(byte[] value) {
        return tlv(BIT_STRING, new byte[] {0}, value);
    }

    static byte[] utf8(String text) {
        return tlv(UTF8_STRING, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] nul() {
        return new byte[] {NULL, 0};
    }

    /** UTCTime, which X.509 uses for dates before 2050. */
    static byte[] utcTime(Instant instant) {
        return tlv(UTC_TIME, UTC.format(instant).getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        base128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            base128(out, Long.parseLong(arcs[i]));
        }
        return tlv(OID, out.toByteArray());
    }

    private static void base128(ByteArrayOutputStream out, long value) {
        int groups = 1;
        while (value >>> (7 * groups) != 0) {
            groups++;
        }
        for (int g = groups - 1; g >= 0; g--) {
            int septet = (int) ((value >>> (7 * g)) & 0x7f);
            out.write(g == 0 ? septet : septet | 0x80);
        }
    }

    /** One element read from DER: its tag, and the offsets of its content and of what follows it. */
    record Element(int tag, byte[] source, int start, int contentStart, int end) {
        /** The element at {@code offset} of {@code source}. */
        static Element at(byte[] source, int offset) {
            if (offset + 2 > source.length) {
                throw new IllegalArgumentException("truncated DER at offset " + offset);
            }
            int tag = source[offset] & 0xff;
            int first = source[offset + 1] & 0xff;
            int position = offset + 2;
            long length = first;
            if (first >= 0x80) {
                int count = first & 0x7f;
                if (count == 0 || count > 3 || position + count > source.length) {
                    throw new IllegalArgumentException("unsupported DER length at offset " + offset);
                }
                length = 0;
                for (int i = 0; i < count; i++) {
                    length = (length << 8) | (source[position++] & 0xff);
                }
            }
            if (position + length > source.length) {
                throw new IllegalArgumentException("truncated DER at offset " + offset);
            }
            return new Element(tag, source, offset, position, (int) (position + length));
        }

        /** The first element inside this constructed one. */
        Element firstChild() {
            return at(source, contentStart);
        }

        boolean hasNext(Element parent) {
            return end < parent.end;
        }

        /** The element after this one, inside the same parent. */
        Element next() {
            return at(source, end);
        }

        /** This element with its tag and length, as bytes. */
        byte[] encoded() {
            return Arrays.copyOfRange(source, start, end);
        }
    }
}
