package site.ycsb.embedded;

import static site.ycsb.embedded.KeyValueDB.ALLOW_EMPTY_RUN;
import static site.ycsb.embedded.KeyValueDB.DESTROY_UNKNOWN_FILES;
import static site.ycsb.embedded.KeyValueDB.DISK_SPACE_MARGIN;
import static site.ycsb.embedded.KeyValueDB.FIELD_NAME_PREFIX;
import static site.ycsb.embedded.KeyValueDB.RECORD_LAYOUT;
import static site.ycsb.embedded.KeyValueDB.RUN_READS_RECORDS;
import static site.ycsb.embedded.KeyValueDB.millisSince;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import site.ycsb.DBException;

/**
 * What a binding client's {@code init()} does ({@link KeyValueDB#init}): reads the properties every binding reads
 * and has the binding read its own ({@link KeyValueDB#configure}); then opens the shared handle as the data
 * directory's first client, after its checks (another engine's files, damage, the layout record, a run phase on a
 * database that holds no record, free space, the directory lock), or joins the open one; and hands the client what
 * it made. A refusal throws the DBException YCSB's client prints, with the exit status set, and leaves the
 * directory as it found it. One per init.
 *
 * @param <H> the engine handle type
 */
final class DatabaseOpening<H> {

  /** The layout each open shared handle was opened with, by its record's path. */
  private static final ConcurrentMap<Path, DataLayout> OPEN_LAYOUTS = new ConcurrentHashMap<>();

  private final KeyValueDB<H> client;
  private final Properties p;
  private final String engineName;

  DatabaseOpening(KeyValueDB<H> client) {
    this.client = client;
    this.p = client.getProperties();
    this.engineName = client.engineName();
  }

  /** Opens the engine or joins its open handle, and hands the client its parts; a refusal as a DBException. */
  void open() throws DBException {
    EngineProperties props = new EngineProperties(p, client.engine());
    try {
      props.refuseUpstreamNames();
      Path dir = props.directory(EngineProperties.PATH, "data/" + engineName);
      // true: always; load: only in YCSB's load phase (Client sets dotransactions=false there).
      String destroyWhen = props.choice(EngineProperties.DESTROY, "false", "false", "true", "load");
      boolean loading = !Boolean.parseBoolean(p.getProperty("dotransactions", "true"));
      boolean destroy = destroyWhen.equals("true") || (destroyWhen.equals("load") && loading);
      boolean destroyAnything = props.bool(DESTROY_UNKNOWN_FILES, false);
      // a run phase is what YCSB's -t says explicitly; a client made without it (a test, a tool) is not one
      boolean running = "true".equals(p.getProperty("dotransactions"));
      boolean allowEmpty = props.bool(ALLOW_EMPTY_RUN, false);
      boolean needsRecords = running && !allowEmpty && readsRecords(p);
      props.require(!(needsRecords && destroy), EngineProperties.DESTROY, "false, or load, in a run phase whose"
          + " operations read records, with", ALLOW_EMPTY_RUN, "the run would measure the empty database the"
          + " destroy leaves; nothing was deleted");
      int batchSize = props.integer(EngineProperties.BATCH_SIZE, 1, 1, 10_000_000);
      boolean verbose = props.bool(StartupLines.VERBOSE, false);
      DataLayout[] wanted = {DataLayout.empty()};
      RecordCodec codec = chooseCodec(props, wanted);
      Keys keys = Keys.fromProperties(props, p);
      client.encodeWith(codec, keys); // before configure, which may read them
      wanted[0] = wanted[0].with(Keys.ENCODING, keys.name(), props.isSet(Keys.ENCODING) ? null
          : "the default auto, with keyformat=" + p.getProperty("keyformat", "ycsb"));
      KeyValueDB.EngineOpener<H> opener = client.configure(props, dir);
      DataLayout layout = client.layout(wanted[0]);
      String file = client.databaseFile();
      Path record = DataLayout.recordOf(dir.toAbsolutePath().normalize(), file);
      DiskSpaceGuard guard = DiskSpaceGuard.of(dir, props.size(DISK_SPACE_MARGIN, client.diskSpaceMargin()),
          client.diskSpaceDeferredShare(), client.engine().diskSpaceWriteFactor());
      java.util.SortedSet<String> unread = props.unread();
      if (UnknownProperties.strict(p) && !unread.isEmpty()) { // a run without the launcher's Preflight
        throw new EngineProperties.BadPropertyException(EngineProperties.refusal(unread.first(),
            p.getProperty(unread.first()), "a property " + engineName + " reads ("
            + String.join(", ", unread) + ": none of them) with " + UnknownProperties.STRICT + "=true"));
      }
      DirectoryLock[] dirLock = new DirectoryLock[1]; // held from open to close by the shared handle
      SharedHandles.Lease<H> lease = SharedHandles.acquire(engineName, dir, () -> {
        long t0 = System.nanoTime();
        DataLayout recorded = null;
        String layoutNote = null;
        boolean earlier = false; // a database an earlier version wrote, without a layout record
        // destroy deletes whatever is there; otherwise a refusal leaves the directory as it was
        DirectoryListing before = null;
        if (!destroy) {
          EngineFiles.refuseForeign(dir, engineName);
          DamagedFiles.refuseDamaged(dir, engineName, client.repairs());
          recorded = DataLayout.read(record);
          boolean exists = file == null ? !EngineFiles.identify(dir).isEmpty() : Files.exists(dir.resolve(file));
          if (needsRecords && !exists) { // before anything is created: a mistyped path stays missing
            throw new IOException("this run phase reads records, but " + (file == null ? dir.toAbsolutePath()
                : dir.resolve(file).toAbsolutePath()) + " holds no " + engineName + " database (a mistyped path,"
                + " or no load yet?): every read would be NOT_FOUND. Load it first, or set " + ALLOW_EMPTY_RUN
                + "=true to run on an empty database; nothing was created");
          }
          String none = needsRecords ? client.noRecordInFiles(dir) : null;
          if (none != null) { // before the open, which writes even when it finds nothing
            throw new IOException(emptyRefusal(dir, file, none + "; nothing in it was changed"));
          }
          earlier = recorded == null && exists;
          layoutNote = client.admitLayout(dir, recorded, layout);
          // a repair changes the directory on purpose: what it moved must not be deleted as new
          before = client.repairs() ? null : DirectoryListing.take(dir, client.engine().filesAFailedOpenRewrites());
        }
        if (destroy && !destroyAnything) {
          refuseUnknownFiles(dir, file);
        }
        try {
          dirLock[0] = DirectoryLock.open(dir, destroy, !client.sharesDirectory());
        } catch (IOException | RuntimeException e) {
          throw undo(e, before, null); // another process holds the directory: nothing of ours is in it
        }
        H h;
        try {
          guard.check("opening " + engineName); // a full disk at open is a SIGBUS for mmap engines
          h = opener.open();
          guard.opened();
          guard.follow(client.diskSpaceUsed(h));
        } catch (Exception e) {
          throw undo(guard.explain(e), before, dirLock[0]);
        }
        if (needsRecords) { // the files could not tell (a log of deletions): the open did, before the record
          try {
            refuseIfEmpty(h, dir, file);
          } catch (Exception e) {
            try {
              opener.close(h);
            } catch (Exception closing) {
              e.addSuppressed(closing);
            }
            // not put back: the engine's files are consistent as its open left them, a restored part of them not
            throw undo(e, null, dirLock[0]);
          }
        }
        if (!layout.equals(recorded)) { // after the first open that succeeded: a refused open writes nothing
          try {
            layout.write(record);
          } catch (IOException | RuntimeException e) {
            IOException refusal = new IOException("cannot record the layout in " + record.toAbsolutePath() + ": " + e,
                e);
            try {
              opener.close(h);
            } catch (Exception closing) {
              refusal.addSuppressed(closing);
            }
            throw undo(refusal, before, dirLock[0]); // the engine's new files go with the refusal
          }
        }
        String tag = "[" + engineName + "] ";
        StringBuilder banner = new StringBuilder().append(tag).append("engine: ").append(opener.describe(h))
            .append(System.lineSeparator()).append(tag).append("opened ").append(dir.toAbsolutePath()).append(" in ")
            .append(millisSince(t0)).append(" ms; effective configuration:").append(System.lineSeparator())
            .append(props.describe()).append(tag).append("layout: ").append(layout.describe())
            .append(layout.equals(recorded) ? " (as recorded in " : earlier
                ? " (this directory has no record, written by a version before layouts were recorded: recorded now in "
                : " (recorded now in ").append(record.getFileName()).append(")").append(System.lineSeparator());
        // what the open does to the directory (a conversion) is on the first screen too
        String said = layoutNote == null ? "" : tag + layoutNote + System.lineSeparator();
        if (running) {
          banner.append(tag).append(allowEmpty ? "run phase on any database, empty or missing included ("
              + ALLOW_EMPTY_RUN + "=true)" : needsRecords ? "run phase reading records: a database that does not"
              + " exist or holds no record is refused (" + ALLOW_EMPTY_RUN + "=false)"
              : "run phase: its workload needs no loaded record, so an empty database is measured as it is")
              .append(System.lineSeparator());
        }
        String diskNote = client.diskSpaceNote(guard);
        if (diskNote != null && OncePerJvm.first(tag + diskNote)) {
          banner.append(tag).append(diskNote).append(System.lineSeparator());
        }
        for (String name : unread) { // not again when the launcher's Preflight said it (a name read nowhere)
          if (!OncePerJvm.said(UnknownProperties.onceKey(name))) {
            banner.append(tag).append(UnknownProperties.warning(name, p.getProperty(name),
                client.propertyNames())).append(" (").append(engineName).append("-binding/README.md lists every"
                + " property)").append(System.lineSeparator());
          }
        }
        System.err.print((verbose ? banner : StartupLines.firstScreen(banner.toString(), tag)) + said);
        OPEN_LAYOUTS.put(record, layout);
        return h;
      }, h -> {
        long t0 = System.nanoTime();
        OPEN_LAYOUTS.remove(record);
        guard.follow(null);
        try {
          opener.close(h);
        } finally {
          dirLock[0].close();
        }
        System.err.println("[" + engineName + "] closed " + dir.toAbsolutePath() + " in " + millisSince(t0) + " ms");
      });
      H db;
      try {
        // a client of the same JVM joining the open handle with another layout: refused as a reopen would be
        layout.refuseDisagreement(record, OPEN_LAYOUTS.get(record));
        db = client.join(lease.get());
      } catch (Exception e) {
        lease.close();
        throw e;
      }
      client.joined(lease, db, guard, batchSize);
    } catch (EngineProperties.BadPropertyException e) {
      throw ClientExitStatus.refused(new DBException("[" + engineName + "] " + e.getMessage()));
    } catch (DBException e) {
      throw ClientExitStatus.refused(e);
    } catch (Exception e) {
      throw ClientExitStatus.refused(new DBException("[" + engineName + "] cannot open: " + e.getMessage(), e));
    }
  }

  /**
   * Refuses a destroy of {@code dir} while it holds anything but this engine's database files and the project's own:
   * nothing is deleted, and the message names what is there.
   */
  private void refuseUnknownFiles(Path dir, String file) throws IOException {
    List<String> unknown = EngineFiles.notOwned(dir, engineName, file);
    if (!unknown.isEmpty()) {
      int shown = Math.min(unknown.size(), 5);
      throw new IOException(EngineProperties.DESTROY + " would delete everything in " + dir.toAbsolutePath()
          + ", which holds " + unknown.size() + " entr" + (unknown.size() == 1 ? "y" : "ies") + " that "
          + (unknown.size() == 1 ? "is" : "are") + " not " + engineName + "'s database nor this project's: "
          + String.join(", ", unknown.subList(0, shown)) + (unknown.size() > shown ? " and " + (unknown.size() - shown)
          + " more" : "") + ". Nothing was deleted. Point path at a directory of its own, move them out, or set "
          + DESTROY_UNKNOWN_FILES + "=true to delete them too");
    }
  }

  /** Refuses the open {@code shared} handle when it holds no record, through a client's handle of its own. */
  private void refuseIfEmpty(H shared, Path dir, String file) throws Exception {
    H mine = client.join(shared);
    boolean empty;
    try {
      empty = client.holdsNoRecord(mine);
    } finally {
      client.leave(mine);
    }
    if (empty) {
      throw new IOException(emptyRefusal(dir, file, "its files could not tell, its open found none, after which"
          + " the engine's own files are as the open left them"));
    }
  }

  /** The refusal of a run phase that reads records on a database that holds none, and {@code why}. */
  private String emptyRefusal(Path dir, String file, String why) {
    return "this run phase reads records, but the " + engineName + " database in " + (file == null
        ? dir.toAbsolutePath() : dir.resolve(file).toAbsolutePath()) + " holds none (" + why + "): every read"
        + " would be NOT_FOUND. Load it first, or set " + ALLOW_EMPTY_RUN + "=true to run on an empty database";
  }

  /**
   * Whether a run phase of {@code p}'s workload reads records that a load wrote. The workload class says so itself
   * when it declares {@code public static boolean runReadsRecords(Properties)} ({@link KeyValueDB#RUN_READS_RECORDS}: a
   * trace writes most keys before it reads them, and its load inserts the rest); otherwise any share of reads,
   * updates (which read first), scans, read-modify-writes, deletes or full passes, with CoreWorkload's defaults
   * (0.95 reads, 0.05 updates). A run of inserts alone may start from nothing. A value that is not a number counts
   * as reading: the workload refuses it itself.
   */
  static boolean readsRecords(Properties p) {
    Boolean said = workloadSaysItReadsRecords(p);
    if (said != null) {
      return said;
    }
    String[][] shares = {{"readproportion", "0.95"}, {"updateproportion", "0.05"}, {"scanproportion", "0"},
        {"readmodifywriteproportion", "0"}, {"deleteproportion", "0"}, {"readseqproportion", "0"}};
    for (String[] share : shares) {
      try {
        if (Double.parseDouble(p.getProperty(share[0], share[1]).trim()) > 0) {
          return true;
        }
      } catch (NumberFormatException e) {
        return true;
      }
    }
    return false;
  }

  /**
   * What the workload class's {@link KeyValueDB#RUN_READS_RECORDS} method answers for {@code p}; null when the class
   * declares none or cannot be loaded (YCSB's Client then says why).
   */
  private static Boolean workloadSaysItReadsRecords(Properties p) {
    String name = p.getProperty("workload", "").trim();
    if (name.isEmpty()) {
      return null;
    }
    try {
      java.lang.reflect.Method m = Class.forName(name).getMethod(RUN_READS_RECORDS, Properties.class);
      if (!java.lang.reflect.Modifier.isStatic(m.getModifiers()) || m.getReturnType() != boolean.class) {
        return null;
      }
      return (Boolean) m.invoke(null, p);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      return null;
    }
  }

  /**
   * After a refused open: puts the directory back as {@code before} listed it (nothing when it is
   * null: destroy was asked for), provided no other process holds it, and releases {@code lock}.
   * Returns {@code refusal}, with what could not be put back said in a suppressed exception.
   */
  private static Exception undo(Exception refusal, DirectoryListing before, DirectoryLock lock) {
    try {
      // without a lock of ours only a directory this attempt created can hold files of ours
      boolean alone = lock == null ? before != null && before.wasMissing() : lock.takeExclusively();
      if (before != null && alone) {
        java.util.List<String> lost = before.restore();
        if (!lost.isEmpty()) {
          refusal.addSuppressed(new IOException("the refused open changed " + lost + ", which could not be put back"));
        }
      }
    } catch (IOException | RuntimeException e) {
      refusal.addSuppressed(e);
    } finally {
      try {
        if (lock != null) {
          lock.close();
        }
      } catch (IOException e) {
        refusal.addSuppressed(e);
      }
    }
    return refusal;
  }

  /** The record codec the properties ask for; adds what decides it to {@code layout[0]}. */
  private RecordCodec chooseCodec(EngineProperties props, DataLayout[] layout) {
    String chosen = props.choice(RECORD_LAYOUT, "auto", "auto", "fields", "bare");
    String prefix = p.getProperty(FIELD_NAME_PREFIX, "field");
    long fieldcount = props.integer("fieldcount", 10L, 1L, Integer.MAX_VALUE);
    props.require(!chosen.equals("bare") || fieldcount == 1, RECORD_LAYOUT, "auto or fields with", "fieldcount",
        "bare stores one field");
    boolean bare = chosen.equals("bare") || (chosen.equals("auto") && fieldcount == 1);
    // fields names each field in the stored bytes; bare stores one value, read back under prefix + "0"
    layout[0] = layout[0].with(RECORD_LAYOUT, bare ? "bare" : "fields",
        chosen.equals("auto") ? "recordlayout=auto with fieldcount=" + fieldcount : null);
    if (bare) {
      layout[0] = layout[0].with(FIELD_NAME_PREFIX, prefix, null);
    }
    return bare ? RecordCodec.bare(prefix + "0") : RecordCodec.fields();
  }
}
