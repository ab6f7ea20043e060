package site.ycsb.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which engines' files a data directory holds, found by reading names and file headers only
 * (nothing is written, created or locked), so that a binding refuses another engine's database
 * instead of creating its own beside it, and leaves the directory exactly as it was. Whether those files are
 * damaged is {@link DamagedFiles}'s, from the names and headers defined here.
 *
 * <p>An engine's files are recognised by its registry facts ({@code bin/bindings.properties}, packaged in this
 * module's jar, so that a binding alone on a class path still knows every other engine's files):
 * {@code files.signature} (names and first bytes, {@link FileSignature}), {@code files.claims} (an engine whose
 * files it writes too) and {@code title} (its name in messages).
 */
public final class EngineFiles {

  /** The first 16 bytes of every SQLite database file. */
  public static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  /** The first 4 bytes of every Kyoto Cabinet HashDB and TreeDB file (KCHDBMAGICDATA with its NUL). */
  static final byte[] KYOTO_HEADER = {'K', 'C', '\n', 0};

  /** An engine whose files can be recognised: one with a {@code files.signature} in the registry. */
  public static final class Engine {
    /** The registry's fact that gives the engine whose files this one writes too. */
    static final String CLAIMS = "files.claims";

    /** The binding's engine name ({@code bin/ycsb load <name>}). */
    public final String binding;
    /** The engine's own name, for messages: the registry's {@code title}. */
    public final String title;
    final FileSignature signature;
    /** The engine whose files it writes too (its {@code files.claims}), or null. */
    final String claims;

    private Engine(String binding, String title, FileSignature signature, String claims) {
      this.binding = binding;
      this.title = title;
      this.signature = signature;
      this.claims = claims;
    }

    /** The registry's engines whose files are recognised, in its order. */
    public static Engine[] values() {
      return registered().toArray(new Engine[0]);
    }

    /** The engine whose binding name is {@code binding}; refused when the registry gives it no files.signature. */
    public static Engine named(String binding) {
      for (Engine e : registered()) {
        if (e.binding.equals(binding)) {
          return e;
        }
      }
      throw new IllegalArgumentException("the registry of engines gives " + binding + " no " + FileSignature.FACT);
    }

    /**
     * The engines of {@code facts} (a registry, {@link EngineRegistry#load}) that have a {@code files.signature},
     * in the order of {@code order}; refused with a message naming the fact when one is malformed, lacks its
     * {@code title}, or claims an engine that has no signature.
     */
    static List<Engine> fromRegistry(Properties facts, List<String> order) {
      List<Engine> out = new ArrayList<>();
      for (String name : order) {
        String signature = facts.getProperty(name + "." + FileSignature.FACT);
        if (signature == null) {
          continue;
        }
        String title = facts.getProperty(name + ".title");
        if (title == null || title.isBlank()) {
          throw FileSignature.refused(name + "." + FileSignature.FACT, signature,
              "an engine with a signature needs a title, its name in messages (" + name + ".title)");
        }
        String claims = facts.getProperty(name + "." + CLAIMS);
        if (claims != null && (claims.equals(name) || facts.getProperty(claims + "." + FileSignature.FACT) == null)) {
          throw FileSignature.refused(name + "." + CLAIMS, claims,
              "it must name another engine that has a " + FileSignature.FACT);
        }
        out.add(new Engine(name, title, FileSignature.parse(name, signature), claims));
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Engine e && e.binding.equals(binding);
    }

    @Override
    public int hashCode() {
      return binding.hashCode();
    }

    @Override
    public String toString() {
      return binding;
    }
  }

  /** The packaged registry's engines, parsed once (a malformed fact is refused at each use, never cached). */
  private static volatile List<Engine> registered;

  static List<Engine> registered() {
    List<Engine> r = registered;
    if (r == null) {
      r = Engine.fromRegistry(EngineRegistry.facts(), EngineRegistry.enginesInOrder());
      registered = r;
    }
    return r;
  }

  /** Names listed in a refusal before "and N more". */
  private static final int NAMES_SHOWN = 5;

  /**
   * The binding property ({@code KeyValueDB}'s) with which {@code destroy} deletes files no engine here claims: named
   * in the refusals that say how to get past them.
   */
  static final String DESTROY_UNKNOWN_FILES = "destroyunknownfiles";
  /** The prefix of the project's own files in a data directory (the directory lock, records of ours). */
  static final String PROJECT_FILES = ".ycsb-embedded";
  /** In a registry's {@code files.owned} pattern: the binding's database file, for an engine that has one. */
  static final String DATABASE_FILE = "{file}";
  /** The name of the Kyoto binding's working copy of a file it repairs, before the file's own name. */
  public static final String REPAIR_COPY_PREFIX = PROJECT_FILES + ".repairing.";
  /** Added to a Kyoto Cabinet file's name (and its .wal's), the file as it was before the binding's repair. */
  public static final String KYOTO_BEFORE_REPAIR = ".before-repair";

  /** An LMDB environment's files in its directory: the B+tree (two meta pages first) and the reader table. */
  public static final String LMDB_DATA_FILE = "data.mdb";
  public static final String LMDB_LOCK_FILE = "lock.mdb";
  /** MDB_MAGIC, little-endian after the 16-byte page header of a 64-bit build (both meta pages). */
  public static final int LMDB_MAGIC = 0xBEEFC0DE;
  /** In a meta page (MDB_meta in LMDB's mdb.c, after PAGEHDRSZ): magic, version, page size, last page, txn id. */
  public static final int LMDB_MAGIC_OFFSET = 16;
  public static final int LMDB_PAGE_SIZE_OFFSET = 40;
  static final int LMDB_META_BYTES = 152;
  /** In a meta page: the transaction id that last wrote it (the newer of the two meta pages has the larger). */
  public static final int LMDB_TXNID_OFFSET = 144;

  private EngineFiles() {
  }

  /**
   * The engines whose files {@code dir} holds, each with the names of the files that show it
   * (sorted); empty when {@code dir} is missing, not a directory or holds none.
   */
  public static Map<Engine, List<String>> identify(Path dir) throws IOException {
    return identify(dir, registered());
  }

  /**
   * {@link #identify(Path)} by the signatures of {@code engines}: a file is the engine's whose name item matches it,
   * else whose header item does, else whose fallback does (the first such engine); an engine is there when a file
   * of an item other than {@code also} is its; an engine that claims another is there only where both are, and
   * then holds the other's files too, and the other is not there.
   */
  static Map<Engine, List<String>> identify(Path dir, List<Engine> engines) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Map.of();
    }
    Map<Engine, TreeSet<String>> files = new HashMap<>();
    Set<Engine> shown = new HashSet<>();
    byte[] head = headBuffer(engines);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (!Files.isRegularFile(p) || name.equals(DirectoryLock.FILE) || name.startsWith(DataLayout.FILE)) {
          continue;
        }
        Claim claim = claim(engines, p, name, head);
        if (claim != null) {
          files.computeIfAbsent(claim.engine(), e -> new TreeSet<>()).add(name);
          if (claim.item().kind().shows) {
            shown.add(claim.engine());
          }
        }
      }
    }
    for (Engine e : engines) {
      if (e.claims != null && shown.contains(e)) {
        Engine other = engines.stream().filter(o -> o.binding.equals(e.claims)).findFirst().orElseThrow();
        if (shown.remove(other)) {
          files.get(e).addAll(files.get(other));
        } else {
          shown.remove(e);
        }
      }
    }
    Map<Engine, List<String>> out = new LinkedHashMap<>();
    for (Engine e : engines) {
      if (shown.contains(e)) {
        out.put(e, List.copyOf(files.get(e)));
      }
    }
    return out;
  }

  /** An engine and the item of its signature that claims a file. */
  private record Claim(Engine engine, FileSignature.Item item) {
  }

  /** Which engine's signature claims the file: by name, else by header, else by fallback name; or null. */
  private static Claim claim(List<Engine> engines, Path file, String name, byte[] head) {
    Claim byName = first(engines, name, head, 0, FileSignature.Kind.NAME, FileSignature.Kind.ALSO);
    if (byName != null) {
      return byName;
    }
    Claim byHeader = first(engines, name, head, readHead(file, head), FileSignature.Kind.HEADER);
    return byHeader != null ? byHeader : first(engines, name, head, 0, FileSignature.Kind.FALLBACK);
  }

  private static Claim first(List<Engine> engines, String name, byte[] head, int n, FileSignature.Kind... kinds) {
    for (Engine e : engines) {
      FileSignature.Item item = e.signature.match(name, head, n, kinds);
      if (item != null) {
        return new Claim(e, item);
      }
    }
    return null;
  }

  /** A buffer for as many of a file's first bytes as the longest header item of {@code engines} reads. */
  private static byte[] headBuffer(List<Engine> engines) {
    return new byte[FileSignature.headerBytes(engines.stream().map(e -> e.signature).toList())];
  }

  /** Reads the file's first bytes into {@code head}: how many it holds (0 for a file that cannot be read). */
  private static int readHead(Path file, byte[] head) {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * The entries of {@code dir} that are neither {@code ownEngine}'s (a binding name) database files, recognised by
   * name, nor the project's own ({@code .ycsb-embedded*}): what {@code destroy} must not delete unasked (a user's
   * notes beside a database, another engine's files). {@code databaseFile} is the binding's file inside the
   * directory (SQLite's and Kyoto's; null for an engine that names its files itself); a directory entry is never
   * an engine's. An engine's files by name are the registry's {@code <engine>.files.owned}, a regular expression
   * in which {@value #DATABASE_FILE} stands for {@code databaseFile}. Sorted; empty when {@code dir} is missing.
   * Reads names only.
   */
  public static List<String> notOwned(Path dir, String ownEngine, String databaseFile) throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    // LevelDB's file names are RocksDB's too: what identify() gives another engine is that engine's
    Set<String> others = new HashSet<>();
    identify(dir).forEach((engine, names) -> {
      if (!engine.binding.equals(ownEngine)) {
        others.addAll(names);
      }
    });
    Pattern owned = ownedFiles(ownEngine, databaseFile);
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        boolean file = Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (!(file && !others.contains(name)
            && (name.startsWith(PROJECT_FILES) || (owned != null && owned.matcher(name).matches())))) {
          out.add(name + (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? "/" : ""));
        }
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * {@code engine}'s (a binding name) files by name, from the registry's {@code files.owned}; null when it has none,
   * or when they are named after a database file and {@code databaseFile} is null.
   */
  static Pattern ownedFiles(String engine, String databaseFile) {
    String owned = EngineRegistry.fact(engine, "files.owned");
    if (owned == null || owned.contains(DATABASE_FILE) && databaseFile == null) {
      return null;
    }
    return Pattern.compile(databaseFile == null ? owned : owned.replace(DATABASE_FILE, Pattern.quote(databaseFile)));
  }

  /**
   * Refuses {@code dir} when it holds files of an engine other than {@code ownEngine} (a binding
   * name, as bin/ycsb takes it), naming that engine and the directory. Reads only; call it before anything
   * creates a file in {@code dir}.
   */
  public static void refuseForeign(Path dir, String ownEngine) throws IOException {
    for (Map.Entry<Engine, List<String>> e : identify(dir).entrySet()) {
      if (e.getKey().binding.equals(ownEngine)) {
        continue;
      }
      throw new IOException("data directory " + dir.toAbsolutePath() + " holds " + e.getKey().title
          + " files (" + shown(e.getValue()) + "), not " + ownEngine
          + "'s: refusing to open it, and nothing in it was changed."
          + " Run " + e.getKey().binding + " on it, point path elsewhere, or use destroy=true with "
          + DESTROY_UNKNOWN_FILES + "=true to delete them");
    }
  }

  /** The first {@link #LMDB_META_BYTES} of the page at {@code offset}, little-endian as LMDB writes it on x86. */
  public static ByteBuffer lmdbMeta(Path file, long offset) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(LMDB_META_BYTES).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
      while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
        continue;
      }
    }
    return b.clear();
  }

  /**
   * The newer of an environment's two meta pages ({@link #lmdbMeta} at 0 and at the page size): the second when it
   * carries LMDB's magic and a larger transaction id (compared unsigned), else the first.
   */
  public static ByteBuffer lmdbNewerMeta(ByteBuffer first, ByteBuffer second) {
    boolean secondIsNewer = second.getInt(LMDB_MAGIC_OFFSET) == LMDB_MAGIC
        && Long.compareUnsigned(second.getLong(LMDB_TXNID_OFFSET), first.getLong(LMDB_TXNID_OFFSET)) > 0;
    return secondIsNewer ? second : first;
  }

  /** Up to {@link #NAMES_SHOWN} of {@code names}, then "and N more". */
  static String shown(List<String> names) {
    return names.stream().limit(NAMES_SHOWN).collect(Collectors.joining(", "))
        + (names.size() > NAMES_SHOWN ? " and " + (names.size() - NAMES_SHOWN) + " more" : "");
  }

  /** The engine whose header item claims the file, or null (also for a file that cannot be read). */
  static Engine byHeader(Path file) {
    List<Engine> engines = registered();
    byte[] head = headBuffer(engines);
    Claim claim = first(engines, file.getFileName().toString(), head, readHead(file, head),
        FileSignature.Kind.HEADER);
    return claim == null ? null : claim.engine();
  }

  /** The engine whose name item ({@code name} or {@code also}) claims a file so named, or null. */
  static Engine byName(String fileName) {
    Claim claim = first(registered(), fileName, new byte[0], 0, FileSignature.Kind.NAME, FileSignature.Kind.ALSO);
    return claim == null ? null : claim.engine();
  }

  /** Whether the file's first bytes are {@code prefix}; false when it cannot be read. */
  public static boolean startsWith(Path file, byte[] prefix) {
    byte[] head = new byte[prefix.length];
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, prefix);
    } catch (IOException e) {
      return false;
    }
  }
}
