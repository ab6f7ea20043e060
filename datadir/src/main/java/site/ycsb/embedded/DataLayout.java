package site.ycsb.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * What decides how a run's keys and values become stored bytes (the key encoding, the record layout, and
 * an engine's own choices such as the LevelDB library), recorded in the data directory when the database
 * is created, so that a later run that would lay them out differently is refused instead of reading
 * other keys' values or writing records the first run cannot decode.
 *
 * <p>Each entry is a property name and its resolved value ({@code keyencoding=utf8}, never {@code auto}).
 * The record is the file {@value #FILE} (for a directory that can hold several databases, one per
 * database file: {@link #recordOf}): Java properties text, written atomically (a temporary file,
 * fsync, rename, fsync of the directory). Engines never read it; {@link EngineFiles#identify} ignores it
 * and {@code destroy} deletes it with the database.
 */
public final class DataLayout {

  /** The record's name in the data directory; every name starting with it is the project's, no engine's. */
  public static final String FILE = ".ycsb-embedded.layout";
  /** The suffix of what a record is written through; a leftover of a failed write is replaced by the next one. */
  static final String TEMPORARY = ".tmp";

  private final Map<String, String> entries;
  /** How this run came to each value, for a refusal ("auto with keyformat=ycsb"); empty for a record read. */
  private final Map<String, String> origins;

  private DataLayout(Map<String, String> entries, Map<String, String> origins) {
    this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    this.origins = Collections.unmodifiableMap(new LinkedHashMap<>(origins));
  }

  /** An empty layout, to add this run's entries to. */
  public static DataLayout empty() {
    return new DataLayout(Map.of(), Map.of());
  }

  /**
   * This layout with {@code name = value}; {@code origin} says how the run chose it when that is not
   * plain from the value (null otherwise): it ends a refusal.
   */
  public DataLayout with(String name, String value, String origin) {
    Map<String, String> e = new LinkedHashMap<>(entries);
    Map<String, String> o = new LinkedHashMap<>(origins);
    e.put(name, value);
    if (origin == null) {
      o.remove(name);
    } else {
      o.put(name, origin);
    }
    return new DataLayout(e, o);
  }

  /** The value of {@code name}, or null when it is not part of this layout. */
  public String get(String name) {
    return entries.get(name);
  }

  public Map<String, String> entries() {
    return entries;
  }

  /** "keyencoding=utf8, recordlayout=fields". */
  public String describe() {
    List<String> parts = new ArrayList<>();
    entries.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(", ", parts);
  }

  /**
   * The record of the database in {@code dir}: {@value #FILE} when the directory is the database
   * ({@code databaseFile} null), else {@value #FILE}.NAME for the database file NAME in it.
   */
  public static Path recordOf(Path dir, String databaseFile) {
    return dir.resolve(databaseFile == null ? FILE : FILE + "." + databaseFile);
  }

  /** The record at {@code record}, or null when there is none (a new database, or one an earlier version wrote). */
  public static DataLayout read(Path record) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(record, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | IllegalArgumentException e) {
      throw new IOException("cannot read the layout record " + record.toAbsolutePath() + ": " + e, e);
    }
    Map<String, String> e = new LinkedHashMap<>();
    for (String name : new java.util.TreeSet<>(p.stringPropertyNames())) {
      e.put(name, p.getProperty(name));
    }
    return new DataLayout(e, Map.of());
  }

  /**
   * Writes this layout to {@code record}, replacing any: the file appears whole or not at all, and is on
   * disk (with its directory entry) when this returns.
   */
  public void write(Path record) throws IOException {
    write(record, "The layout of this database's keys and values, recorded by ycsb-embedded when it was created.\n"
        + "A run whose properties lay them out differently is refused; destroy=true deletes this file too.");
  }

  /**
   * Writes these entries to {@code record} under {@code header} (its lines become comments), as {@link #write(Path)}
   * does: for another record of the project's kept beside the layout (LMDB's tree at its last close).
   */
  public void write(Path record, String header) throws IOException {
    StringWriter text = new StringWriter();
    header.lines().forEach(l -> text.write("# " + l + "\n"));
    for (Map.Entry<String, String> e : entries.entrySet()) {
      Properties one = new Properties(); // its escaping, without its date comment
      one.setProperty(e.getKey(), e.getValue());
      Writer line = new StringWriter();
      one.store(line, null);
      line.toString().lines().filter(l -> !l.startsWith("#")).forEach(l -> text.write(l + "\n"));
    }
    Path tmp = record.resolveSibling(record.getFileName() + TEMPORARY);
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      ch.write(StandardCharsets.UTF_8.encode(text.toString()));
      ch.force(true);
    }
    Files.move(tmp, record, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel d = FileChannel.open(record.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
      d.force(true); // the rename itself survives a crash
    }
  }

  /**
   * Refuses a database recorded with another layout than this run's, naming every entry that differs with
   * both values and how this run chose its own; {@code recorded} null (no record) passes.
   *
   * @throws LayoutMismatchException when they differ; nothing has been written
   */
  public void refuseDisagreement(Path record, DataLayout recorded) throws LayoutMismatchException {
    if (recorded == null) {
      return;
    }
    Set<String> names = new LinkedHashSet<>(entries.keySet());
    names.addAll(recorded.entries.keySet());
    List<String> differences = new ArrayList<>();
    List<String> fixes = new ArrayList<>();
    for (String name : names) {
      String was = recorded.get(name);
      String now = get(name);
      if (was == null || now == null || !was.equals(now)) {
        String origin = origins.get(name);
        differences.add(name + " = " + (was == null ? "(none)" : was) + " when it was created, " + name + " = "
            + (now == null ? "(none)" : now) + " in this run" + (origin == null ? "" : " (" + origin + ")"));
        if (was != null) {
          fixes.add(name + "=" + was);
        }
      }
    }
    if (!differences.isEmpty()) {
      throw new LayoutMismatchException("data directory " + record.toAbsolutePath().getParent() + " holds a database"
          + " laid out with " + String.join("; ", differences) + " (recorded in " + record.getFileName() + "):"
          + " refusing to open it, and nothing in it was changed. Run with " + String.join(" ", fixes) + " as it was"
          + " written, point path elsewhere, or use destroy=true to start over");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DataLayout other && entries.equals(other.entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  @Override
  public String toString() {
    return describe();
  }

  /** A reopen whose layout disagrees with the database's record. */
  public static final class LayoutMismatchException extends IOException {
    private static final long serialVersionUID = 1L;

    public LayoutMismatchException(String message) {
      super(message);
    }
  }
}
