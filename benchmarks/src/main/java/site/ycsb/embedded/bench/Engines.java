package site.ycsb.embedded.bench;

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
import site.ycsb.DB;
import site.ycsb.embedded.EngineProperties;
import site.ycsb.embedded.kyoto.KyotoClient;
import site.ycsb.embedded.kyoto.KyotoJni;
import site.ycsb.embedded.kyoto.KyotoOptions;
import site.ycsb.embedded.leveldb.LevelDbClient;
import site.ycsb.embedded.leveldb.LevelDbHandle;
import site.ycsb.embedded.leveldb.LevelDbOptions;
import site.ycsb.embedded.lmdb.LmdbClient;
import site.ycsb.embedded.lmdb.LmdbHandle;
import site.ycsb.embedded.rocksdb.RocksDbClient;
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

  /** One engine: {@code sideBySide} sets the properties both sides of the side-by-side benchmark are opened with. */
  record Engine(String name, Opener opener, Version version, Supplier<DB> client, Consumer<Properties> sideBySide) {

    /** The Java library opened directly (layer (b)) with the binding's Options read from {@code raw}. */
    LayerDirect openDirect(Path dir, Properties raw) throws Exception {
      return opener.open(dir, new EngineProperties(raw, name), raw);
    }

    /** The engine and version inside the Java library {@link #openDirect} calls with these properties. */
    String libraryVersion(Properties raw) throws Exception {
      return version.of(raw);
    }

    /** A new instance of the binding. */
    DB newClient() {
      return client.get();
    }
  }

  /** The engines, in the order the benchmarks list them. */
  static final List<Engine> ALL = List.of(
      // leveldbjni, or the system library with leveldb.library=system: the binding's LevelDbHandle.
      new Engine("leveldb", (dir, p, raw) -> LevelDbDirect.open(dir, p),
          raw -> LevelDbHandle.libraryVersion(LevelDbOptions.read(new EngineProperties(raw, "leveldb"))),
          LevelDbClient::new, p -> { }),
      // rocksdbjni: the binding's RocksDbHandle with RocksDbOptions; no statistics on either side by default.
      new Engine("rocksdb", (dir, p, raw) -> RocksDirect.open(dir, new RocksDbOptions(p, raw)),
          raw -> "RocksDB " + RocksDB.rocksdbVersion() + " (rocksdbjni)",
          RocksDbClient::new, p -> p.setProperty("rocksdb.stats", "false")),
      // sqlite-jdbc with the binding's kv table and statements and the pragmas SqliteOptions reads.
      new Engine("sqlite", (dir, p, raw) -> SqliteDirect.open(SqliteOptions.readKv(p, raw, dir)),
          Engines::sqliteVersion, SqliteClient::new, p -> { }),
      // The Kyoto JNI layer: the binding's KyotoHandle with KyotoOptions (tuning string, open mode). Side by side, both
      // sides open without auto-transaction (the binding's default adds one per write: a mode, not a cost).
      new Engine("kyoto", (dir, p, raw) -> KyotoDirect.open(KyotoOptions.read(p, dir)),
          raw -> "Kyoto Cabinet " + KyotoJni.libraryVersion() + " (system library, project JNI)",
          KyotoClient::new, p -> p.setProperty(KyotoOptions.AUTOTRAN, "false")),
      // lmdbjava through the binding's LmdbHandle, opened with the options LmdbOptions reads.
      new Engine("lmdb", (dir, p, raw) -> LmdbDirect.open(dir, p), raw -> LmdbHandle.libraryVersion(),
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
}
