package batchpipe.worker.scan;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Decompresses every member of a multi-member gzip stream (RFC 1952), checking each member's CRC-32 and
 * length. The JDK's GZIPInputStream decides whether another member follows by asking the source's
 * {@code available()}, so on a network stream it can stop silently after the first member; this class
 * reads until the source ends instead, and treats bytes after a member that are not a gzip header as
 * corrupt rather than ignoring them.
 */
final class GzipMembersInputStream extends InputStream {

    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    private static final int RESERVED_FLAGS = 0xE0;

    private final InputStream in;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final byte[] input;
    private int inputPos;
    private int inputLen;
    private boolean inMember;
    private boolean finished;
    private long memberOut;
    private int members;

    GzipMembersInputStream(InputStream in, int inputBufferBytes) {
        this.in = in;
        this.input = new byte[inputBufferBytes];
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int r;
        while ((r = read(one, 0, 1)) == 0) {
            // inflate may produce nothing while it consumes headers; keep going
        }
        return r < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!finished) {
            if (!inMember) {
                if (!startMember()) {
                    finished = true;
                    break;
                }
            }
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw new ZipException("gzip member " + members + " has invalid deflate data: " + e.getMessage());
            }
            if (n > 0) {
                crc.update(b, off, n);
                memberOut += n;
                return n;
            }
            if (inflater.finished()) {
                inputPos = inputLen - inflater.getRemaining();
                endMember();
            } else if (inflater.needsDictionary()) {
                throw new ZipException("gzip member " + members + " asks for a preset dictionary");
            } else if (inflater.needsInput()) {
                if (!refill()) {
                    throw new EOFException("gzip member " + members + " is truncated: the source ended mid-member");
                }
                inflater.setInput(input, inputPos, inputLen - inputPos);
                inputPos = inputLen;
            }
        }
        return -1;
    }

    /** Parses a member header; false when the source ended cleanly after the previous member. */
    private boolean startMember() throws IOException {
        int id1 = nextByte();
        if (id1 < 0) {
            if (members == 0) {
                throw new EOFException("gzip stream is empty");
            }
            return false;
        }
        int id2 = nextByte();
        if (id1 != 0x1F || id2 != 0x8B) {
            throw new ZipException(members == 0 ? "not a gzip header"
                    : "bytes after gzip member " + members + " are not another gzip member");
        }
        int method = requireByte();
        if (method != 8) {
            throw new ZipException("gzip compression method " + method + " is not deflate");
        }
        int flags = requireByte();
        if ((flags & RESERVED_FLAGS) != 0) {
            throw new ZipException("gzip header sets reserved flags " + Integer.toHexString(flags));
        }
        for (int i = 0; i < 6; i++) {
            requireByte(); // mtime, extra flags, OS
        }
        if ((flags & FEXTRA) != 0) {
            int extraLen = requireByte() | (requireByte() << 8);
            for (int i = 0; i < extraLen; i++) {
                requireByte();
            }
        }
        if ((flags & FNAME) != 0) {
            while (requireByte() != 0) {
                // file name, zero-terminated
            }
        }
        if ((flags & FCOMMENT) != 0) {
            while (requireByte() != 0) {
                // comment, zero-terminated
            }
        }
        if ((flags & FHCRC) != 0) {
            requireByte();
            requireByte();
        }
        members++;
        inflater.reset();
        crc.reset();
        memberOut = 0;
        inflater.setInput(input, inputPos, inputLen - inputPos);
        inputPos = inputLen;
        inMember = true;
        return true;
    }

    private void endMember() throws IOException {
        long expectedCrc = readLittleEndianInt();
        long expectedSize = readLittleEndianInt();
        if (expectedCrc != crc.getValue()) {
            throw new ZipException("gzip member " + members + " fails its CRC-32 check");
        }
        if (expectedSize != (memberOut & 0xFFFFFFFFL)) {
            throw new ZipException("gzip member " + members + " length does not match its trailer");
        }
        inMember = false;
    }

    private long readLittleEndianInt() throws IOException {
        long v = 0;
        for (int i = 0; i < 4; i++) {
            v |= (long) requireByte() << (8 * i);
        }
        return v;
    }

    private int requireByte() throws IOException {
        int b = nextByte();
        if (b < 0) {
            throw new EOFException("gzip member " + (members + (inMember ? 0 : 1))
                    + " is truncated: the source ended inside a header or trailer");
        }
        return b;
    }

    private int nextByte() throws IOException {
        if (inputPos == inputLen && !refill()) {
            return -1;
        }
        return input[inputPos++] & 0xFF;
    }

    private boolean refill() throws IOException {
        int r;
        do {
            r = in.read(input, 0, input.length);
        } while (r == 0);
        if (r < 0) {
            inputPos = inputLen = 0;
            return false;
        }
        inputPos = 0;
        inputLen = r;
        return true;
    }

    @Override
    public void close() {
        inflater.end();
    }
}
