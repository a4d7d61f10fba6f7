package batchpipe.worker.scan;

/** The container of an object, told by its first bytes, never by its name. */
enum CompressionFormat {
    PLAIN,
    ZSTD,
    GZIP;

    static final int MAGIC_BYTES = 4;

    static CompressionFormat detect(byte[] head, int length) {
        if (length >= 4 && (head[0] & 0xFF) == 0x28 && (head[1] & 0xFF) == 0xB5 && (head[2] & 0xFF) == 0x2F
                && (head[3] & 0xFF) == 0xFD) {
            return ZSTD;
        }
        if (length >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B) {
            return GZIP;
        }
        return PLAIN;
    }
}
