package site.ycsb.embedded.leveldb;

import site.ycsb.embedded.EngineProperties;

/**
 * The LevelDB binding's properties: names, defaults and ranges (table: leveldb-binding/README.md), read
 * and checked once into the values {@link LevelDbHandle#open} passes to the chosen library.
 *
 * @param library         {@value #LIBRARY_LEVELDBJNI} or {@value #LIBRARY_SYSTEM}
 * @param convert         leveldb.convert: open a leveldbjni database with the system library
 * @param createIfMissing create the database when the directory holds none
 * @param cacheSize       block cache in bytes
 * @param writeBufferSize write buffer (memtable) in bytes
 * @param blockSize       uncompressed table block size in bytes
 * @param maxOpenFiles    table files kept open
 * @param snappy          Snappy compression (otherwise none)
 * @param paranoidChecks  check every stored structure aggressively
 * @param verifyChecksums verify block checksums on every read
 * @param sync            every write synced to the device before it returns
 * @param repair          run RepairDB on the directory before opening it
 * @param bloomBits       bloom filter bits per key (system library only; 0: none)
 * @param maxFileSize     table file size at which a compaction starts a new one (system library only)
 */
public record LevelDbOptions(String library, boolean convert, boolean createIfMissing, long cacheSize,
                             int writeBufferSize, int blockSize, int maxOpenFiles, boolean snappy,
                             boolean paranoidChecks, boolean verifyChecksums, boolean sync, boolean repair,
                             int bloomBits, long maxFileSize) {

  // Engine-neutral knobs (leveldb.<name> overrides <name>); see EngineProperties.
  /** Block cache in bytes. LevelDB's own default is 8 MB. */
  public static final long CACHE_SIZE_DEFAULT = 8L << 20;
  /** Write buffer (memtable) in bytes. LevelDB's own default is 4 MB. */
  public static final long WRITE_BUFFER_SIZE_DEFAULT = 4L << 20;
  /** snappy or none. */
  public static final String COMPRESSION_DEFAULT = "snappy";

  // LevelDB-only options.
  /** Create the database when the directory holds none. */
  public static final String CREATE_IF_MISSING = "leveldb.createifmissing";
  /** Uncompressed size of a table block in bytes. */
  public static final String BLOCK_SIZE = "leveldb.blocksize";
  public static final int BLOCK_SIZE_DEFAULT = 4096;
  /** Table files LevelDB keeps open. */
  public static final String MAX_OPEN_FILES = "leveldb.maxopenfiles";
  public static final int MAX_OPEN_FILES_DEFAULT = 1000;
  /** Check every stored structure aggressively; stop on the first corruption. */
  public static final String PARANOID_CHECKS = "leveldb.paranoidchecks";
  /** Verify block checksums on every read. */
  public static final String VERIFY_CHECKSUMS = "leveldb.verifychecksums";
  /**
   * Run LevelDB's RepairDB on the directory before opening it: rebuilds CURRENT and a MANIFEST from the
   * tables and logs (a directory without CURRENT is refused otherwise). Never implicit.
   */
  public static final String REPAIR = "leveldb.repair";

  // Choice of library.
  /** leveldbjni (fusesource 1.8, LevelDB 1.13) or system (the system's libleveldb through leveldbjni_sys). */
  public static final String LIBRARY = "leveldb.library";
  public static final String LIBRARY_DEFAULT = "leveldbjni";
  public static final String LIBRARY_LEVELDBJNI = "leveldbjni";
  public static final String LIBRARY_SYSTEM = "system";
  /**
   * Open with leveldb.library=system a database leveldbjni (LevelDB 1.13) wrote: LevelDB 1.23 writes its
   * tables as .ldb, which 1.13 cannot read, so the database is 1.23's from then on. Without it, refused.
   */
  public static final String CONVERT = "leveldb.convert";

  // Options only the system library (LevelDB 1.23's C API) has; leveldbjni refuses them.
  /** Bloom filter bits per key; 0: no filter (LevelDB's default). */
  public static final String BLOOM_BITS = "leveldb.bloombits";
  public static final int BLOOM_BITS_DEFAULT = 0;
  /** Size at which a compaction starts a new table file, bytes (LevelDB clips it to 1 MB..1 GB). */
  public static final String MAX_FILE_SIZE = "leveldb.maxfilesize";
  public static final long MAX_FILE_SIZE_DEFAULT = 2L << 20;

  /**
   * Reads and checks every LevelDB property; a bad value, or an option the chosen library does not
   * have, is refused by name.
   */
  public static LevelDbOptions read(EngineProperties props) {
    String library = props.choice(LIBRARY, LIBRARY_DEFAULT, LIBRARY_LEVELDBJNI, LIBRARY_SYSTEM);
    boolean system = library.equals(LIBRARY_SYSTEM);
    boolean convert = props.bool(CONVERT, false);
    props.require(!convert || system, CONVERT, "false with", LIBRARY,
        "a database converts from LevelDB 1.13 (leveldbjni) to 1.23 (system) only, never back");
    boolean createIfMissing = props.bool(CREATE_IF_MISSING, true);
    long cacheSize = props.size(EngineProperties.CACHE_SIZE, CACHE_SIZE_DEFAULT);
    // LevelDB 1.23 clips these silently to other bounds than 1.13: refuse what it would change.
    int writeBufferSize = (int) props.size(EngineProperties.WRITE_BUFFER_SIZE, WRITE_BUFFER_SIZE_DEFAULT,
        system ? 64 << 10 : 0, system ? 1 << 30 : Integer.MAX_VALUE);
    int blockSize = props.integer(BLOCK_SIZE, BLOCK_SIZE_DEFAULT, system ? 1024 : 256, system ? 4 << 20 : 64 << 20);
    int maxOpenFiles = props.integer(MAX_OPEN_FILES, MAX_OPEN_FILES_DEFAULT, system ? 74 : 20,
        system ? 50_000 : 1 << 20);
    boolean snappy = props.choice(EngineProperties.COMPRESSION, COMPRESSION_DEFAULT, "snappy", "none")
        .equals("snappy");
    boolean paranoidChecks = props.bool(PARANOID_CHECKS, false);
    boolean verifyChecksums = props.bool(VERIFY_CHECKSUMS, false);
    boolean sync = props.bool(EngineProperties.SYNC, false);
    boolean repair = props.bool(REPAIR, false);
    int bloomBits = BLOOM_BITS_DEFAULT;
    long maxFileSize = MAX_FILE_SIZE_DEFAULT;
    if (system) {
      bloomBits = props.integer(BLOOM_BITS, BLOOM_BITS_DEFAULT, 0, 1000);
      maxFileSize = props.size(MAX_FILE_SIZE, MAX_FILE_SIZE_DEFAULT, 1L << 20, 1L << 30);
    } else {
      for (String only : new String[] {BLOOM_BITS, MAX_FILE_SIZE}) {
        if (props.isSet(only)) {
          String value = props.string(only, "");
          throw new EngineProperties.BadPropertyException("property " + only + " = '" + value + "' is not allowed"
              + " with " + LIBRARY + "=leveldbjni (LevelDB 1.13 through leveldbjni has no such option): expected "
              + LIBRARY + "=system, or no " + only);
        }
      }
    }
    return new LevelDbOptions(library, convert, createIfMissing, cacheSize, writeBufferSize, blockSize,
        maxOpenFiles, snappy, paranoidChecks, verifyChecksums, sync, repair, bloomBits, maxFileSize);
  }

  /** Whether these options choose the system library (leveldb.library=system). */
  public boolean system() {
    return library.equals(LIBRARY_SYSTEM);
  }
}
