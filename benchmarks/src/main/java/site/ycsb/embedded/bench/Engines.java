package site.ycsb.embedded.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import site.ycsb.DB;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.NativeScanBuffer;
import site.ycsb.embedded.kyoto.KyotoClient;
import site.ycsb.embedded.kyoto.KyotoHandle;
import site.ycsb.embedded.kyoto.KyotoJni;
import site.ycsb.embedded.kyoto.KyotoOptions;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.leveldb.LevelDbHandle;
import site.ycsb.embedded.leveldb.LevelDbOptions;
import site.ycsb.embedded.lmdb.LmdbClient;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.lmdb.LmdbOptions;
import site.ycsb.embedded.rocksdb.RocksDbClient;
import site.ycsb.embedded.rocksdb.RocksDbHandle;
import site.ycsb.embedded.rocksdb.RocksDbOptions;
import site.ycsb.embedded.sqlite.SqliteClient;
import site.ycsb.embedded.sqlite.SqliteOptions;

/**
 * The one registry of engines in the benchmarks, one row per engine: its binding (layers (c) and (d), the
 * side-by-side benchmark's binding side), its Java library opened directly with the values the binding's own Options
 * read from the same properties (layer (b), layer (d0)'s {@link LibraryDB}, the side-by-side benchmark's direct
 * side), so that a setting means the same on every side, and the library's version.
 */
final class Engines {

  private Engines() {
  }

  /** Opens an engine's Java library directly, given the engine's properties and the raw ones. */
  interface Opener {
    LayerDirect open(Path dir, EngineProperties p, Properties raw) throws Exception;
  }

  /** The engine and version inside the Java library, given the properties. */
  interface Version {
    String of(Properties raw) throws Exception;
  }

  /**
   * One engine: its Java library's opener and version (the engine and version inside the library {@link #openDirect}
   * calls with these properties), its binding, and {@code sideBySide}, which sets the properties both sides of the
   * side-by-side benchmark are opened with.
   */
  record Engine(String name, Opener opener, Version libraryVersion, Supplier<DB> binding,
      Consumer<Properties> sideBySide) {

    /** The Java library opened directly (layer (b)) with the binding's Options read from {@code raw}. */
    LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      return opener.open(dir, new EngineProperties(raw, name), raw);
    }
  }

  /** The engines, in the order the benchmarks list them. */
  static final List<Engine> ALL = List.of(
      new Engine("leveldb", (dir, p, raw) -> leveldb(dir, p),
          raw -> LevelDbHandle.libraryVersion(LevelDbOptions.read(new EngineProperties(raw, "leveldb"))),
          LevelDbClient::new, p -> { }),
      // No statistics on either side of the side-by-side benchmark.
      new Engine("rocksdb", (dir, p, raw) -> rocksdb(dir, new RocksDbOptions(p, raw)),
          raw -> "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni)",
          RocksDbClient::new, p -> p.setProperty("rocksdb.stats", "false")),
      new Engine("sqlite", (dir, p, raw) -> SqliteDirect.open(SqliteOptions.readKv(p, raw, dir)),
          Engines::sqliteVersion, SqliteClient::new, p -> { }),
      // Side by side, both sides open without auto-transaction (the binding's default adds one per write: a mode,
      // not a cost).
      new Engine("kyoto", (dir, p, raw) -> kyoto(KyotoOptions.read(p, dir)),
          raw -> "Kyoto Cabinet " + KyotoJni.libraryVersion() + " (system library, project JNI)",
          KyotoClient::new, p -> p.setProperty(KyotoOptions.AUTOTRAN, "false")),
      new Engine("lmdb", (dir, p, raw) -> lmdb(dir, p), raw -> LmdbHandle.libraryVersion(),
          LmdbClient::new, p -> { }));

  /** The names of {@link #ALL}, in its order: every list of engines the benchmarks default to. */
  static List<String> names() {
    return ALL.stream().map(Engine::name).toList();
  }

  /** The engine of that name; an unknown name is refused with the known ones. */
  static Engine named(String name) {
    for (Engine e : ALL) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown engine " + name + "; known: " + String.join(", ", names()));
  }

  private static String sqliteVersion(Properties raw) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
      rs.next();
      return "SQLite " + rs.getString(1) + " (sqlite-jdbc)";
    }
  }

  /** leveldbjni, or the system library with leveldb.library=system: the binding's handle with LevelDbOptions. */
  private static LayerDirect leveldb(Path dir, EngineProperties p) throws IOException {
    LevelDbHandle h = LevelDbHandle.open(dir, LevelDbOptions.read(p));
    LayerDirect.Batch batch = (k, v, from, n) -> h.write(LayerDirect.range(k, from, n),
        LayerDirect.range(v, from, n), n);
    LayerDirect.Pass all = LayerDirect.counting(pass -> h.scan(new byte[0], Integer.MAX_VALUE, pass));
    return LayerDirect.of(h::put, batch, h::get, all, h::close);
  }

  /** rocksdbjni: the binding's handle with RocksDbOptions (it closes its native objects) and read/write options. */
  private static LayerDirect rocksdb(Path dir, RocksDbOptions options) throws IOException {
    RocksDB.loadLibrary();
    RocksDbHandle h = RocksDbHandle.open(options, dir);
    RocksDB db = h.db();
    LayerDirect.Batch batch = (k, v, from, n) -> {
      try (WriteBatch b = new WriteBatch()) {
        for (int i = from; i < from + n; i++) {
          b.put(k[i], v[i]);
        }
        db.write(h.writeOptions(), b);
      }
    };
    LayerDirect.Pass all = () -> {
      long n = 0;
      try (RocksIterator it = db.newIterator(h.readOptions())) {
        for (it.seekToFirst(); it.isValid(); it.next(), n++) {
          BindingOverhead.touch(it.value());
        }
      }
      return n;
    };
    return LayerDirect.of((k, v) -> db.put(h.writeOptions(), k, v), batch, k -> db.get(h.readOptions(), k), all,
        h::close);
  }

  /** The Kyoto JNI layer: the binding's handle with KyotoOptions (tuning, open mode), a transaction per batch. */
  private static LayerDirect kyoto(KyotoOptions options) throws IOException {
    KyotoHandle h = KyotoHandle.open(options);
    LayerDirect.Batch batch = (k, v, from, n) -> h.putInTransaction(LayerDirect.range(k, from, n),
        LayerDirect.range(v, from, n), n);
    LayerDirect.Pass all = LayerDirect.counting(pass -> h.withCursor(new byte[0], Integer.MAX_VALUE,
        fill -> NativeScanBuffer.feed(fill, Integer.MAX_VALUE, pass)));
    return LayerDirect.of(h::put, batch, h::get, all, h::close);
  }

  /** lmdbjava: the binding's handle with LmdbOptions and one reader, as a client keeps one (let go before a write). */
  private static LayerDirect lmdb(Path dir, EngineProperties p) throws IOException {
    LmdbHandle h = LmdbHandle.open(LmdbOptions.read(p), Files.createDirectories(dir));
    LmdbHandle.Reader reader;
    try {
      reader = h.reader();
    } catch (IOException | RuntimeException e) {
      h.close();
      throw e;
    }
    LayerDirect.Put put = (k, v) -> {
      reader.drop();
      h.put(k, v);
    };
    LayerDirect.Batch batch = (k, v, from, n) -> {
      reader.drop();
      h.putAll(LayerDirect.range(k, from, n), LayerDirect.range(v, from, n), n);
    };
    LayerDirect.Pass all = LayerDirect.counting(pass -> h.scan(reader, new byte[0], Integer.MAX_VALUE, pass));
    return LayerDirect.of(put, batch, k -> h.get(reader, k), all, () -> {
      h.release(reader);
      h.close();
    });
  }
}
