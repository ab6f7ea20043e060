package site.ycsb.embedded;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a binding's engine is, the same for every client thread, every run and every configuration: the facts a
 * {@link KeyValueDB} subclass returns once ({@link KeyValueDB#facts}), in one place at the top of the client,
 * where what depends on the properties (the disk-space margin, the database file, a repair) stays a hook that
 * {@link KeyValueDB#configure} informs.
 *
 * @param name the engine's name as the registry spells it, the prefix of its properties and its messages
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
 * @param upstreamAliases upstream YCSB 0.17's property names that mean the same as one of the binding's, each with
 *     the engine-prefixed name of ours it means: honoured ({@link EngineProperties}), so that a pipeline that swaps
 *     upstream's binding for this one keeps its command line; sorted by upstream's name
 * @param upstreamRefused upstream YCSB 0.17's property names whose meaning differs from anything the binding does,
 *     each with what upstream meant and what to set instead: refused at start rather than ignored
 *     ({@link EngineProperties#refuseUpstreamNames}); sorted by name
 */
public record EngineFacts(String name, Class<?> optionsClass, List<String> ownNeutralNames,
    Set<String> filesAFailedOpenRewrites, double diskSpaceWriteFactor, Map<String, String> upstreamAliases,
    Map<String, String> upstreamRefused) {

  /**
   * The engine-neutral knobs KeyValueDB and every binding read: each also as engine.NAME, which overrides it
   * ({@link EngineProperties}).
   */
  private static final List<String> NEUTRAL_NAMES = List.of(EngineProperties.PATH, EngineProperties.DESTROY,
      KeyValueDB.DESTROY_UNKNOWN_FILES, EngineProperties.BATCH_SIZE, EngineProperties.SYNC,
      EngineProperties.COMPRESSION, EngineProperties.CACHE_SIZE, EngineProperties.WRITE_BUFFER_SIZE,
      KeyValueDB.RECORD_LAYOUT, Keys.ENCODING, KeyValueDB.DISK_SPACE_MARGIN, KeyValueDB.ALLOW_EMPTY_RUN,
      StartupLines.VERBOSE, "fieldcount");

  public EngineFacts {
    ownNeutralNames = List.copyOf(ownNeutralNames);
    filesAFailedOpenRewrites = Set.copyOf(filesAFailedOpenRewrites);
    upstreamAliases = Collections.unmodifiableSortedMap(new TreeMap<>(upstreamAliases));
    upstreamRefused = Collections.unmodifiableSortedMap(new TreeMap<>(upstreamRefused));
  }

  /**
   * The engine {@code name} whose property names {@code optionsClass} holds: no name of its own beyond every
   * binding's, no file rewritten by a failed open, one copy of a write on disk (the write itself), no upstream YCSB
   * name honoured or refused.
   */
  public static EngineFacts of(String name, Class<?> optionsClass) {
    return new EngineFacts(name, optionsClass, List.of(), Set.of(), 1, Map.of(), Map.of());
  }

  /**
   * Every property a binding of this engine may read: the neutral knobs (every binding's, {@code fieldcount} among
   * them, and {@link #ownNeutralNames}), each also engine-prefixed, the names of {@link #optionsClass} (of
   * {@code client}, the binding's client class, when that is null), upstream YCSB's names it honours or refuses, and
   * YCSB's {@code fieldnameprefix} and {@code keyformat}.
   */
  public SortedSet<String> propertyNames(Class<?> client) {
    SortedSet<String> names = new TreeSet<>(List.of(KeyValueDB.FIELD_NAME_PREFIX, "keyformat"));
    List<String> neutral = new ArrayList<>(NEUTRAL_NAMES);
    neutral.addAll(ownNeutralNames);
    for (String neutralName : neutral) {
      names.add(neutralName);
      names.add(name + "." + neutralName);
    }
    Class<?> options = optionsClass != null ? optionsClass : client;
    for (java.lang.reflect.Field f : options.getFields()) {
      try {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
            && !f.getName().endsWith("_DEFAULT") && ((String) f.get(null)).startsWith(name + ".")) {
          names.add((String) f.get(null));
        }
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }
    names.addAll(upstreamAliases.keySet());
    names.addAll(upstreamRefused.keySet());
    return names;
  }

  /** These facts with {@code names} as the binding's own names without a dot. */
  public EngineFacts withOwnNeutralNames(List<String> names) {
    return new EngineFacts(name, optionsClass, names, filesAFailedOpenRewrites, diskSpaceWriteFactor, upstreamAliases,
        upstreamRefused);
  }

  /** These facts with {@code files} as the files a failed open rewrites. */
  public EngineFacts withFilesAFailedOpenRewrites(Set<String> files) {
    return new EngineFacts(name, optionsClass, ownNeutralNames, files, diskSpaceWriteFactor, upstreamAliases,
        upstreamRefused);
  }

  /** These facts with {@code copies} as the copies of one write the engine may hold on disk at once. */
  public EngineFacts withDiskSpaceWriteFactor(double copies) {
    return new EngineFacts(name, optionsClass, ownNeutralNames, filesAFailedOpenRewrites, copies, upstreamAliases,
        upstreamRefused);
  }

  /** These facts with {@code aliases} (upstream's name -> ours) as the upstream YCSB names the binding honours. */
  public EngineFacts withUpstreamAliases(Map<String, String> aliases) {
    return new EngineFacts(name, optionsClass, ownNeutralNames, filesAFailedOpenRewrites, diskSpaceWriteFactor,
        aliases, upstreamRefused);
  }

  /** These facts with {@code refused} (upstream's name -> what to set instead) as the upstream names refused. */
  public EngineFacts withUpstreamRefused(Map<String, String> refused) {
    return new EngineFacts(name, optionsClass, ownNeutralNames, filesAFailedOpenRewrites, diskSpaceWriteFactor,
        upstreamAliases, refused);
  }
}
