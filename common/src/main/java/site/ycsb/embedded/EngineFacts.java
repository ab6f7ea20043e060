package site.ycsb.embedded;

import java.util.List;
import java.util.Set;

/**
 * What a binding's engine is, the same for every client thread, every run and every configuration: the facts a
 * {@link KeyValueDB} subclass returns once ({@link KeyValueDB#facts}), in one place at the top of the client,
 * where what depends on the properties (the disk-space margin, the database file, a repair) stays a hook that
 * {@link KeyValueDB#configure} informs.
 *
 * @param name the engine's name, the prefix of its properties and its messages ({@code leveldb})
 * @param optionsClass the class that holds the binding's own property names as public String constants (its Options
 *     class, go-ycsb's block of names): those that start with the engine's name and a dot, not a {@code _DEFAULT}
 *     value; null for the client class itself
 * @param ownNeutralNames the names without a dot the binding reads through {@link EngineProperties} beyond every
 *     binding's knobs (so also as {@code name.NAME})
 * @param filesAFailedOpenRewrites files in the data directory the engine rewrites even when its open fails
 *     (LevelDB's and RocksDB's info LOG): copied before the open and put back after a refusal
 * @param diskSpaceWriteFactor how many copies of one write the engine may hold on disk at once (its log, the table a
 *     flush writes, a compaction's output, a copy-on-write page): a write larger than the free-space guard's
 *     interval must find that many times its size free beyond the margin ({@link DiskSpaceGuard})
 */
public record EngineFacts(String name, Class<?> optionsClass, List<String> ownNeutralNames,
    Set<String> filesAFailedOpenRewrites, double diskSpaceWriteFactor) {

  public EngineFacts {
    ownNeutralNames = List.copyOf(ownNeutralNames);
    filesAFailedOpenRewrites = Set.copyOf(filesAFailedOpenRewrites);
  }

  /**
   * The engine {@code name} whose property names {@code optionsClass} holds: no name of its own beyond every
   * binding's, no file rewritten by a failed open, one copy of a write on disk (the write itself).
   */
  public static EngineFacts of(String name, Class<?> optionsClass) {
    return new EngineFacts(name, optionsClass, List.of(), Set.of(), 1);
  }

  /** These facts with {@code names} as the binding's own names without a dot. */
  public EngineFacts withOwnNeutralNames(List<String> names) {
    return new EngineFacts(name, optionsClass, names, filesAFailedOpenRewrites, diskSpaceWriteFactor);
  }

  /** These facts with {@code files} as the files a failed open rewrites. */
  public EngineFacts withFilesAFailedOpenRewrites(Set<String> files) {
    return new EngineFacts(name, optionsClass, ownNeutralNames, files, diskSpaceWriteFactor);
  }

  /** These facts with {@code copies} as the copies of one write the engine may hold on disk at once. */
  public EngineFacts withDiskSpaceWriteFactor(double copies) {
    return new EngineFacts(name, optionsClass, ownNeutralNames, filesAFailedOpenRewrites, copies);
  }
}
