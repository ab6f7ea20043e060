package site.ycsb.embedded;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How one engine's files are recognised in a data directory: the registry's {@code <engine>.files.signature} (its
 * opening comment gives the format), parsed. {@link EngineFiles#identify} applies every engine's signature in three
 * rounds: names ({@code name}, {@code also}; a file's bytes are not read, as a directory holds thousands of tables),
 * then headers, then the names that only a file no header claims is recognised by ({@code fallback}).
 */
final class FileSignature {

  /** The fact that holds a signature. */
  static final String FACT = "files.signature";

  /** What one item of a signature matches, and whether such a file alone shows the engine is there. */
  enum Kind {
    /** A file so named, whatever it holds; it shows the engine. */
    NAME(true),
    /** A file so named, but it is the engine's only where another item shows the engine. */
    ALSO(false),
    /** A file that starts with these bytes (and, when the item gives one, is so named). */
    HEADER(true),
    /** A file so named that no engine's header claims. */
    FALLBACK(true);

    final boolean shows;

    Kind(boolean shows) {
      this.shows = shows;
    }
  }

  /** One item: its kind, its name pattern (null: any name, for a header alone) and its first bytes (headers). */
  record Item(Kind kind, Pattern name, byte[] header) {
    boolean matches(String fileName, byte[] head, int headLength) {
      if (name != null && !name.matcher(fileName).matches()) {
        return false;
      }
      return header == null || headLength >= header.length
          && Arrays.equals(head, 0, header.length, header, 0, header.length);
    }
  }

  /** The items, in the order the registry gives them. */
  final List<Item> items;

  private FileSignature(List<Item> items) {
    this.items = List.copyOf(items);
  }

  /** The longest header any item of {@code signatures} reads. */
  static int headerBytes(List<FileSignature> signatures) {
    int n = 0;
    for (FileSignature s : signatures) {
      for (Item item : s.items) {
        n = Math.max(n, item.header() == null ? 0 : item.header().length);
      }
    }
    return n;
  }

  /** The first item of {@code kinds}' that matches the file, or null. */
  Item match(String fileName, byte[] head, int headLength, Kind... kinds) {
    for (Item item : items) {
      for (Kind kind : kinds) {
        if (item.kind() == kind && item.matches(fileName, head, headLength)) {
          return item;
        }
      }
    }
    return null;
  }

  /**
   * {@code value}, the registry's {@code <engine>.files.signature}: comma-separated items {@code name:REGEX},
   * {@code also:REGEX}, {@code header:HEX}, {@code header:HEX@REGEX} and {@code fallback:REGEX}. Refused with a
   * message that names the fact, the item and what is allowed when an item is none of these.
   */
  static FileSignature parse(String engine, String value) {
    String fact = engine + "." + FACT;
    List<Item> items = new ArrayList<>();
    for (String raw : value.split(",", -1)) {
      String item = raw.strip();
      int colon = item.indexOf(':');
      String kind = colon < 0 ? item : item.substring(0, colon);
      String pattern = colon < 0 ? "" : item.substring(colon + 1);
      if (pattern.isEmpty()) {
        throw refused(fact, item, "each item is KIND:PATTERN, KIND one of name, also, header, fallback");
      }
      switch (kind) {
        case "name" -> items.add(new Item(Kind.NAME, regex(fact, item, pattern), null));
        case "also" -> items.add(new Item(Kind.ALSO, regex(fact, item, pattern), null));
        case "fallback" -> items.add(new Item(Kind.FALLBACK, regex(fact, item, pattern), null));
        case "header" -> {
          int at = pattern.indexOf('@');
          String hex = at < 0 ? pattern : pattern.substring(0, at);
          items.add(new Item(Kind.HEADER, at < 0 ? null : regex(fact, item, pattern.substring(at + 1)),
              hex(fact, item, hex)));
        }
        default -> throw refused(fact, item, "its kind is not one of name, also, header, fallback");
      }
    }
    if (items.stream().noneMatch(i -> i.kind().shows)) {
      throw refused(fact, value, "an item other than also: must show the engine is there");
    }
    return new FileSignature(items);
  }

  private static Pattern regex(String fact, String item, String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw refused(fact, item, "its pattern is not a Java regular expression (" + e.getDescription() + ")");
    }
  }

  private static byte[] hex(String fact, String item, String hex) {
    try {
      byte[] bytes = HexFormat.of().parseHex(hex);
      if (bytes.length > 0) {
        return bytes;
      }
    } catch (IllegalArgumentException e) {
      // refused below
    }
    throw refused(fact, item, "a header is a file's first bytes, two hex digits a byte (53514c69: \"SQLi\")");
  }

  static IllegalArgumentException refused(String fact, String item, String why) {
    return new IllegalArgumentException("the registry of engines' " + fact + " holds \"" + item + "\": " + why);
  }
}
