package site.ycsb.embedded;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import site.ycsb.DB;

/**
 * Where the warm-up's database goes, and how its properties are made from the real run's: a hidden sibling of the
 * real data directory (same filesystem, never inside it), made for this process and deleted after, with every
 * property that names the data directory pointed at it.
 */
final class ScratchDatabase {

  /** Why there is no warm-up, or null. */
  final String skipped;
  /** The real data directory, or null for a DB that keeps no data ({@link NothingDB}). */
  final Path real;
  /** The engine's name for the line, as the registry spells it. */
  final String engine;
  /** The properties that name the data directory, each set to the scratch one. */
  final List<String> pathNames;
  /** The properties that would delete the directory first, each set to false. */
  final List<String> destroyNames;
  /** The properties that let a run open an empty database, each set to true. */
  final List<String> allowNames;
  /** The scratch root once made: what a JVM exiting inside the warm-up deletes. */
  private volatile Path root;

  private ScratchDatabase(String skipped, Path real, String engine, List<String> pathNames, List<String> destroyNames,
      List<String> allowNames) {
    this.skipped = skipped;
    this.real = real;
    this.engine = engine;
    this.pathNames = pathNames;
    this.destroyNames = destroyNames;
    this.allowNames = allowNames;
  }

  static ScratchDatabase of(DB probe, String target, Properties props) {
    if (probe instanceof KeyValueDB<?> kv) {
      EngineFacts facts = kv.engine();
      String engine = facts.name();
      Path dir = new EngineProperties(props, facts).directory(EngineProperties.PATH, "data/" + engine);
      List<String> names = new ArrayList<>(List.of(EngineProperties.PATH, engine + "." + EngineProperties.PATH));
      facts.upstreamAliases().forEach((upstream, ours) -> {
        if (ours.equals(engine + "." + EngineProperties.PATH)) {
          names.add(upstream);
        }
      });
      return new ScratchDatabase(null, dir, engine, names,
          List.of(EngineProperties.DESTROY, engine + "." + EngineProperties.DESTROY),
          // the scratch database opens empty for the run's warm-up, which loads it first
          List.of(KeyValueDB.ALLOW_EMPTY_RUN, engine + "." + KeyValueDB.ALLOW_EMPTY_RUN));
    }
    String named = props.getProperty(Warmup.PATH_PROPERTY);
    if (named != null) {
      if (props.getProperty(named) == null) {
        throw new EngineProperties.BadPropertyException(Warmup.PATH_PROPERTY + "=" + named + " names a property"
            + " that is not set: it must name the property that holds " + target + "'s data directory");
      }
      Path dir = new EngineProperties(props, "warmup").directory(named, null);
      return new ScratchDatabase(null, dir, target, List.of(named), List.of(), List.of());
    }
    if (probe instanceof NothingDB) {
      return new ScratchDatabase(null, null, target, List.of(), List.of(), List.of());
    }
    return new ScratchDatabase(target + " is not one of this project's bindings: a DB that keeps its data in a"
        + " local directory is warmed on a scratch one when " + Warmup.PATH_PROPERTY + " names the property that"
        + " holds it; a remote store is not warmed, its data having no scratch copy", null, null, List.of(),
        List.of(), List.of());
  }

  /**
   * The real run's properties for the scratch database: nothing that would delete the directory first, and an empty
   * database allowed in a run (its warm-up loads it first).
   */
  Properties baseProperties(Properties props) {
    Properties base = new Properties();
    base.putAll(props);
    for (String name : destroyNames) {
      base.setProperty(name, "false");
    }
    for (String name : allowNames) {
      base.setProperty(name, "true");
    }
    return base;
  }

  /** Creates the scratch root (none for a DB that keeps no data) and keeps it for {@link #deleteRoot}. */
  Path create() throws NoRoot {
    Path made = real == null ? null : createRoot(real.toAbsolutePath().normalize());
    root = made;
    return made;
  }

  /** One pass's properties: its own scratch directory, and NanoTimedDB's figures kept inside it. */
  Properties passProperties(Properties base, Path root, int pass, boolean nano) {
    Properties p = new Properties();
    p.putAll(base);
    if (root != null) {
      String dir = root.resolve("pass" + pass).resolve(real.getFileName().toString()).toString();
      for (String name : pathNames) {
        p.setProperty(name, dir);
      }
    }
    if (nano) {
      // NanoTimedDB writes its figures at its last close: into the scratch directory, never the step's file;
      // without one, on stdout, which the warm-up holds and drops
      if (root != null) {
        p.setProperty(NanoTimedDB.FILE, root.resolve("nanotimed-" + pass + ".json").toString());
      } else {
        p.remove(NanoTimedDB.FILE);
      }
    }
    return p;
  }

  /** Deletes the scratch root, if any is left (a JVM exiting inside the warm-up). */
  void deleteRoot() {
    Path r = root;
    if (r != null && Files.exists(r)) {
      try {
        DirectoryListing.deleteTree(r);
      } catch (IOException e) {
        System.err.println("[ycsb-embedded] the warm-up's scratch directory " + r + " was not deleted: " + e);
      }
    }
  }

  /**
   * The scratch root: a hidden sibling of the real directory, made new for this process; a {@link NoRoot} when
   * none can be made (the real open then says what is wrong with the directory).
   */
  private static Path createRoot(Path real) throws NoRoot {
    try {
      return makeRoot(real);
    } catch (IOException e) {
      throw new NoRoot("cannot make a scratch directory beside " + real + " (" + e + ")");
    }
  }

  private static Path makeRoot(Path real) throws IOException {
    Path parent = real.getParent();
    if (parent == null) {
      throw new IOException("the data directory " + real + " has no parent to hold a scratch database beside it");
    }
    Files.createDirectories(parent);
    String name = "." + real.getFileName() + ".warmup-" + ProcessHandle.current().pid();
    for (int n = 0; ; n++) {
      Path root = parent.resolve(n == 0 ? name : name + "-" + n);
      try {
        return Files.createDirectory(root);
      } catch (FileAlreadyExistsException e) {
        if (n == 100) {
          throw e;
        }
      }
    }
  }

  /** No scratch directory could be made: the warm-up is skipped, and the real open meets the same directory. */
  static final class NoRoot extends Exception {
    private static final long serialVersionUID = 1L;

    NoRoot(String message) {
      super(message);
    }
  }
}
