package batchpipe.aggregator.report;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * tasks.csv of a run too large to hold: each task record's cells are rendered as the record is folded
 * ({@link TasksCsv#cell}) and spilled to a temporary file, and {@link #writeTo} writes the file
 * {@link TasksCsv#render} would give, streaming. The spill is needed because the header names every
 * attribute some record holds (the known columns, then the others sorted), which only the last record
 * settles, and every row has a cell for each header column; the spill holds only the cells a record has,
 * tagged by attribute, so it is about the size of tasks.csv itself (on Lambda, /tmp: 512 MB unless the
 * function's EphemeralStorage says more). The file is deleted by {@link #close()}, or once these rows are
 * no longer reachable.
 */
public final class TaskRows implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    private static final int END_OF_ROW = -1;

    private final Path file;
    private final Cleaner.Cleanable deletion;
    private DataOutputStream spill;
    private final Map<String, Integer> attributeIds = new HashMap<>();
    private final List<String> attributes = new ArrayList<>();
    private long rows;

    /** Rows spilled to a new temporary file under {@code java.io.tmpdir}. */
    public TaskRows() {
        try {
            this.file = Files.createTempFile("batchpipe-tasks-", ".spill");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the spill file of tasks.csv under " + System.getProperty("java.io.tmpdir"), e);
        }
        Path spilled = file;
        this.deletion = CLEANER.register(this, () -> deleteQuietly(spilled));
        try {
            this.spill = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
        } catch (IOException e) {
            deletion.clean();
            throw new UncheckedIOException("cannot write the spill file " + file, e);
        }
    }

    /** One record: {@code item} is the record as stored ({@code TaskRecord.toItem()}), {@code itemBytes} its size. */
    public void add(Map<String, AttributeValue> item, long itemBytes) {
        if (spill == null) throw new IllegalStateException("tasks.csv rows are already written; no row can be added");
        try {
            for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
                String name = attribute.getKey();
                if (name.equals(TasksCsv.ITEM_BYTES)) continue; // the derived column, below
                writeCell(idOf(name), TasksCsv.cell(attribute.getValue()));
            }
            writeCell(idOf(TasksCsv.ITEM_BYTES), TasksCsv.field(itemBytes));
            spill.writeInt(END_OF_ROW);
            rows++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the spill file " + file + " (is " + file.getParent() + " full?)", e);
        }
    }

    private int idOf(String attribute) {
        Integer id = attributeIds.get(attribute);
        if (id == null) {
            id = attributes.size();
            attributeIds.put(attribute, id);
            attributes.add(attribute);
        }
        return id;
    }

    private void writeCell(int id, String cell) throws IOException {
        byte[] bytes = cell.getBytes(StandardCharsets.UTF_8);
        spill.writeInt(id);
        spill.writeInt(bytes.length);
        spill.write(bytes);
    }

    public long rows() {
        return rows;
    }

    /** tasks.csv, byte for byte what {@link TasksCsv#render} gives for the same records in the same order. */
    public void writeTo(OutputStream out) throws IOException {
        finishSpill();
        // the derived column is last whatever the records hold, as render() puts it
        List<String> columns = TasksCsv.columnsOf(attributes.stream().filter(a -> !a.equals(TasksCsv.ITEM_BYTES)).toList());
        int[] columnOf = new int[attributes.size()];
        for (int id = 0; id < attributes.size(); id++) columnOf[id] = columns.indexOf(attributes.get(id));
        byte[][] cells = new byte[columns.size()][];
        OutputStream csv = new BufferedOutputStream(out, 1 << 16);
        csv.write(String.join(",", columns.stream().map(TasksCsv::field).toList()).getBytes(StandardCharsets.UTF_8));
        csv.write('\r');
        csv.write('\n');
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            for (long row = 0; row < rows; row++) {
                java.util.Arrays.fill(cells, null);
                for (int id = in.readInt(); id != END_OF_ROW; id = in.readInt()) {
                    byte[] cell = new byte[in.readInt()];
                    in.readFully(cell);
                    int column = columnOf[id];
                    if (column >= 0) cells[column] = cell;
                }
                for (int c = 0; c < cells.length; c++) {
                    if (c > 0) csv.write(',');
                    if (cells[c] != null) csv.write(cells[c]);
                }
                csv.write('\r');
                csv.write('\n');
            }
        } catch (EOFException e) {
            throw new IOException("the spill file " + file + " ends before its " + rows + " rows", e);
        }
        csv.flush();
    }

    /** tasks.csv as text: for a run small enough to hold it (tests, the CLI's files of a small run). */
    public String render() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private void finishSpill() throws IOException {
        if (spill != null) {
            spill.close();
            spill = null;
        }
    }

    /** Deletes the spill file; the rows cannot be written afterwards. */
    @Override
    public void close() {
        try {
            finishSpill();
        } catch (IOException ignored) {
            // the file is deleted next; nothing of it is read again
        }
        deletion.clean();
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temporary file left behind; the next cold start's /tmp is new
        }
    }
}
