package site.ycsb.embedded.sqlite;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything {@link SqliteClient#configure} read and validated: how the database is opened and
 * how each connection is set up. Values are SQLite's own spellings (WAL, OFF, EXCLUSIVE).
 *
 * @param dir data directory
 * @param fileName database file inside {@code dir}
 * @param schema the YCSB table
 * @param pageSize page size in bytes for a new database
 * @param pageSizeSet whether the page size was asked for (a mismatch with an existing file is then warned about)
 * @param cacheKib page cache per connection (or for the shared cache) in KiB
 * @param journalMode journal_mode
 * @param synchronous synchronous
 * @param lockingMode locking_mode
 * @param sharedCache open every connection in shared-cache mode
 * @param busyTimeoutMs how long a blocked statement waits in total before it gives up
 * @param mmapSize mmap_size in bytes
 * @param walAutocheckpoint wal_autocheckpoint in pages
 * @param processLock hold a lock file so that a second process is refused
 * @param rowidLayoutSet whether sqlite.withoutrowid was given (if not, an existing kv table of the other
 *     layout is used as it is)
 * @param notes lines for the start-up header (ignored or unknown properties)
 */
record Settings(Path dir, String fileName, Schema schema, int pageSize, boolean pageSizeSet, long cacheKib,
                String journalMode, String synchronous, String lockingMode, boolean sharedCache, int busyTimeoutMs,
                long mmapSize, int walAutocheckpoint, boolean processLock, boolean rowidLayoutSet,
                List<String> notes) {

  Path file() {
    return dir.resolve(fileName);
  }

  Path lockFile() {
    return dir.resolve(fileName + ".lock");
  }

  /** EXCLUSIVE locking: one connection holds the file, so every client thread shares it. */
  boolean exclusive() {
    return lockingMode.equals("EXCLUSIVE");
  }
}
