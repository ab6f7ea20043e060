package site.ycsb.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The registry of engines, {@code bin/bindings.properties}: the facts about an engine that code outside its
 * binding reads (bin/ycsb, the analysis and this class read the same file; its opening comment lists them). The
 * build packages the one file into this module's jar, so a binding reads it wherever it runs, a drop-in into
 * upstream YCSB with one binding included. {@value #EXTRA} names more files of the same format (":"-separated),
 * read after it, as bin/ycsb and the analysis read them: a test registers an engine of its own that way.
 */
public final class EngineRegistry {

  /** Where the build puts the registry in this jar. */
  static final String RESOURCE = "/bindings.properties";
  /** The environment variable that names more registry files. */
  public static final String EXTRA = "YCSB_EMBEDDED_ENGINES";

  private static final Properties FACTS = load(System.getenv(EXTRA));

  private EngineRegistry() {
  }

  /** The packaged registry, then each file of {@code extra} (":"-separated; null or empty: none). */
  static Properties load(String extra) {
    Properties p = new InOrder();
    try (InputStream in = EngineRegistry.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("no " + RESOURCE + " in the datadir jar: the registry of engines is missing");
      }
      p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String file : extra == null ? new String[0] : extra.split(":")) {
        if (!file.isEmpty()) {
          try (Reader r = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            p.load(r);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading the registry of engines (" + EXTRA + "=" + extra + ")", e);
    }
    return p;
  }

  /** The registry's bin/ycsb engines: the names of its {@code name:class} lines (a fact's key holds a "."), sorted. */
  public static SortedSet<String> engines() {
    SortedSet<String> names = new TreeSet<>();
    for (String key : FACTS.stringPropertyNames()) {
      if (!key.contains(".")) {
        names.add(key);
      }
    }
    return names;
  }

  /**
   * The registry's bin/ycsb engines in the order of their {@code name:class} lines (the packaged file's, then each
   * further file's new names): the order the benchmarks list their engines in.
   */
  public static List<String> enginesInOrder() {
    return enginesInOrder(FACTS);
  }

  /** The engines of {@code facts} (as {@link #load} gives them) in the order of their {@code name:class} lines. */
  static List<String> enginesInOrder(Properties facts) {
    return List.copyOf(((InOrder) facts).engines);
  }

  /** Every fact of the registry this JVM reads (the packaged file and {@value #EXTRA}'s). */
  static Properties facts() {
    return FACTS;
  }

  /** The fact {@code fact} of {@code engine} (a bin/ycsb engine name), or null when the registry has none. */
  public static String fact(String engine, String fact) {
    return FACTS.getProperty(engine + "." + fact);
  }

  /**
   * Every engine's facts whose name starts with {@code prefix} ({@code launch.native.}: the registry's lines
   * {@code <engine>.launch.native.FILE=...}), as the rest of the name ({@code FILE}) -> the value, sorted by it.
   */
  public static SortedMap<String, String> factsStartingWith(String prefix) {
    SortedMap<String, String> found = new TreeMap<>();
    for (String key : FACTS.stringPropertyNames()) {
      int dot = key.indexOf('.');
      if (dot > 0 && key.startsWith(prefix, dot + 1)) {
        found.put(key.substring(dot + 1 + prefix.length()), FACTS.getProperty(key));
      }
    }
    return found;
  }

  /** Properties that keep the names of the {@code name:class} lines in the order the files give them. */
  private static final class InOrder extends Properties {
    private static final long serialVersionUID = 1L;
    private final transient List<String> engines = new ArrayList<>();

    @Override
    public synchronized Object put(Object key, Object value) {
      if (!key.toString().contains(".") && !engines.contains(key.toString())) {
        engines.add(key.toString());
      }
      return super.put(key, value);
    }
  }
}
