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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * tasks.csv of a run too large to hold: each task record's cells are rendered as the record is folded
 * ({@link TasksCsv#cell}) and spilled to a temporary file, and {@link #writeTo} writes the file
 * {@link TasksCsv#render} would give, streaming. The spill is needed because the header names every
 * attribute some record holds (the known columns, then the others sorted), which only the last record
 * settles, and every row has a cell for each header column; the spill holds only the cells a record has,
 * tagged by attribute, so it is about the size of tasks.csv itself (on Lambda, /tmp: 512 MB unless the
 * function's EphemeralStorage says more). countby.csv, whose heading is fixed, is spilled to a second file
 * as its finished rows ({@link TasksCsv#appendCountByRows}). The files are deleted by {@link #close()}, or
 * once these rows are no longer reachable, or when the JVM exits normally, whichever comes first: a report
 * a caller never closed (a failed write, a CLI that exits) must not leave its rows in /tmp, where a warm
 * Lambda instance's 512 MB are shared by every later invocation.
 */
public final class TaskRows implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();
    /** The spill files not yet deleted, for the exit hook: only live rows, so it stays as small as the reports open at once. */
    private static final Set<Path> UNDELETED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> UNDELETED.forEach(TaskRows::deleteQuietly), "batchpipe-spill-deletion"));
    }

    private static final int END_OF_ROW = -1;

    private final Path file;
    private final Path countByFile;
    private final Cleaner.Cleanable deletion;
    private DataOutputStream spill;
    private java.io.Writer countBySpill;
    private final Map<String, Integer> attributeIds = new HashMap<>();
    private final List<String> attributes = new ArrayList<>();
    private long rows;

    /** Rows spilled to new temporary files under {@code java.io.tmpdir}. */
    public TaskRows() {
        Path tasks = null, countBy = null;
        try {
            tasks = Files.createTempFile("batchpipe-tasks-", ".spill");
            UNDELETED.add(tasks);
            countBy = Files.createTempFile("batchpipe-countby-", ".spill");
            UNDELETED.add(countBy);
        } catch (IOException e) {
            if (tasks != null) deleteQuietly(tasks);
            throw new UncheckedIOException("cannot create the spill files of tasks.csv and countby.csv under "
                    + System.getProperty("java.io.tmpdir"), e);
        }
        this.file = tasks;
        this.countByFile = countBy;
        Path spilledTasks = tasks, spilledCountBy = countBy;
        this.deletion = CLEANER.register(this, () -> {
            deleteQuietly(spilledTasks);
            deleteQuietly(spilledCountBy);
        });
        try {
            this.spill = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
            this.countBySpill = Files.newBufferedWriter(countByFile, StandardCharsets.UTF_8);
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
                if (name.equals(TasksCsv.COUNT_BY)) continue; // in countby.csv
                writeCell(idOf(name), TasksCsv.cell(attribute.getValue()));
                if (TasksCsv.EPOCH_MS.contains(name)) writeCell(idOf(name + TasksCsv.UTC_SUFFIX), TasksCsv.utcCell(attribute.getValue()));
            }
            TasksCsv.appendCountByRows(item, countBySpill);
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

    /** The two spill files (tasks, then countby), for tests. */
    List<Path> spillFiles() {
        return List.of(file, countByFile);
    }

    public long rows() {
        return rows;
    }

    /** tasks.csv, byte for byte what {@link TasksCsv#render} gives for the same records in the same order. */
    public void writeTo(OutputStream out) throws IOException {
        finishSpill();
        // the same columns as render(): the attributes in its order, a UTC cell beside each time, the derived column last
        // the UTC cells were spilled under their column's name, which is not a recorded attribute
        List<String> shown = TasksCsv.attributesOf(attributes.stream().filter(a -> !(a.endsWith(TasksCsv.UTC_SUFFIX)
                && TasksCsv.EPOCH_MS.contains(a.substring(0, a.length() - TasksCsv.UTC_SUFFIX.length())))).toList());
        List<String> columns = new ArrayList<>();
        for (String attribute : shown) {
            columns.add(attribute);
            if (TasksCsv.EPOCH_MS.contains(attribute)) columns.add(attribute + TasksCsv.UTC_SUFFIX);
        }
        columns.add(TasksCsv.ITEM_BYTES);
        int[] columnOf = new int[attributes.size()];
        for (int id = 0; id < attributes.size(); id++) columnOf[id] = columns.indexOf(attributes.get(id));
        byte[][] cells = new byte[columns.size()][];
        OutputStream csv = new BufferedOutputStream(out, 1 << 16);
        csv.write(String.join(",", TasksCsv.headingsOf(shown).stream().map(TasksCsv::field).toList()).getBytes(StandardCharsets.UTF_8));
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

    /** countby.csv, byte for byte what {@link TasksCsv#renderCountBy} gives for the same records in the same order. */
    public void writeCountByTo(OutputStream out) throws IOException {
        finishSpill();
        out.write(TasksCsv.countByHeading().getBytes(StandardCharsets.UTF_8));
        Files.copy(countByFile, out);
        out.flush();
    }

    /** countby.csv as text: for a run small enough to hold it. */
    public String renderCountBy() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writeCountByTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
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
        if (countBySpill != null) {
            countBySpill.close();
            countBySpill = null;
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
        UNDELETED.remove(file);
    }
}
