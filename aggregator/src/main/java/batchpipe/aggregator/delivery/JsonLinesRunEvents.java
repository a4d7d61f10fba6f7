package batchpipe.aggregator.delivery;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonFields;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/**
 * The event as one JSON line appended to a file, shaped like an EventBridge event (source,
 * detail-type, time, detail). For the local stack, which has no EventBridge.
 */
public final class JsonLinesRunEvents implements RunEvents {
    /** A file lock is held per process; threads of one process (the local runtime's instances) take turns here. */
    private static final Object APPENDING = new Object();

    private final Path file;
    private final Clock clock;

    public JsonLinesRunEvents(Path file, Clock clock) {
        this.file = file;
        this.clock = clock;
    }

    @Override
    public String destination() {
        return file.toString();
    }

    @Override
    public void publish(RunCompleted event) {
        JsonFields line = new JsonFields().put("source", RunCompleted.SOURCE).put("detail-type", RunCompleted.DETAIL_TYPE)
                .put("time", clock.instant().toString()).put("detail", event.detail());
        byte[] bytes = (Json.write(line) + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (APPENDING) {
            append(event.runId(), bytes);
        }
    }

    private void append(String runId, byte[] bytes) {
        try {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            // Several aggregator instances (threads here, or processes) may append at once: one whole line each.
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
                 FileLock ignored = channel.lock()) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) channel.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not append the Run Completed event of run " + runId + " to " + file, e);
        }
    }
}
