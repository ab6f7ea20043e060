package site.ycsb.embedded.sqlite;

import static site.ycsb.embedded.RecordsInFiles.nonEmpty;
import static site.ycsb.embedded.RecordsInFiles.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a SQLite database file holds a row of the binding's table, read from the file's bytes alone (SQLite's file
 * format, fileformat2.html), so that a run phase that reads records is refused before the open makes a database of
 * an empty file or creates the table ({@link SqliteClient#noRecordInFiles}).
 */
final class SqliteFileRecords {

  /** SQLite's b-tree page types (fileformat2.html, 1.6) and its schema's columns. */
  private static final int INDEX_LEAF = 0x0A;
  private static final int TABLE_LEAF = 0x0D;
  private static final int INDEX_INTERIOR = 0x02;
  private static final int TABLE_INTERIOR = 0x05;

  private SqliteFileRecords() {
  }

  /**
   * Why {@code file} holds no row of {@code table}, or null when it holds one or this cannot tell: none when the
   * file is empty (SQLite would open it as a new database), when no table of that name is in its schema (the open
   * would create one), or when the table's root page is a leaf with no cell. Not told when a write-ahead log or
   * rollback journal beside it has a byte in it (the rest may be there), nor for a schema longer than one page.
   */
  static String whyNone(Path file, String table) throws IOException {
    String name = file.getFileName().toString();
    long size = Files.size(file);
    if (size == 0) {
      return name + " is empty (SQLite opens it as a new database)";
    }
    if (nonEmpty(Path.of(file + "-wal")) || nonEmpty(Path.of(file + "-journal")) || size < 100) {
      return null;
    }
    ByteBuffer head = read(file, 0, 100);
    int pageSize = head.getShort(16) & 0xFFFF;
    pageSize = pageSize == 1 ? 65536 : pageSize;
    int usable = pageSize - (head.get(20) & 0xFF);
    if (pageSize < 512 || size < pageSize || head.getInt(56) != 1) { // 1: UTF-8 text
      return null;
    }
    ByteBuffer schema = read(file, 0, pageSize);
    if ((schema.get(100) & 0xFF) != TABLE_LEAF) {
      return null; // a schema of more than one page: not read here
    }
    long root = -1;
    int cells = schema.getShort(103) & 0xFFFF;
    for (int i = 0; i < cells && root < 0; i++) {
      List<Object> row = schemaRow(schema, schema.getShort(108 + 2 * i) & 0xFFFF, usable);
      if (row == null) {
        return null;
      }
      if (row.size() >= 4 && "table".equals(row.get(0)) && row.get(1) instanceof String n
          && n.equalsIgnoreCase(table) && row.get(3) instanceof Long rootPage) {
        root = rootPage;
      }
    }
    if (root < 0) {
      return name + " has no table " + table + " (the open would create it)";
    }
    if (root < 2 || (root - 1) * pageSize + pageSize > size) {
      return null;
    }
    ByteBuffer page = read(file, (root - 1) * pageSize, 8);
    int type = page.get(0) & 0xFF;
    if (type == TABLE_LEAF || type == INDEX_LEAF) {
      return (page.getShort(3) & 0xFFFF) == 0 ? "the table " + table + " in " + name + " has no row" : null;
    }
    return null; // an interior page, or one this does not know
  }

  /** SQLite's schema row in the leaf cell at {@code cell} as strings and longs, or null for what is not read. */
  private static List<Object> schemaRow(ByteBuffer page, int cell, int usable) {
    long[] payload = varint(page, cell);
    long[] rowid = payload == null ? null : varint(page, (int) payload[1]);
    if (rowid == null || payload[0] > usable - 35) {
      return null; // spills to an overflow page
    }
    int start = (int) rowid[1];
    long[] headerSize = varint(page, start);
    if (headerSize == null || start + payload[0] > page.limit()) {
      return null;
    }
    int at = (int) headerSize[1];
    int data = start + (int) headerSize[0];
    List<Object> row = new ArrayList<>();
    while (at < start + headerSize[0]) {
      long[] type = varint(page, at);
      if (type == null) {
        return null;
      }
      at = (int) type[1];
      long t = type[0];
      int length = t >= 12 ? (int) ((t - 12) / 2) : t <= 4 ? (int) t : t == 5 ? 6 : t == 6 || t == 7 ? 8 : 0;
      if (data + length > page.limit()) {
        return null;
      }
      if (t >= 13 && t % 2 == 1) {
        byte[] text = new byte[length];
        page.get(data, text);
        row.add(new String(text, StandardCharsets.UTF_8));
      } else if (t >= 1 && t <= 6) {
        long v = page.get(data); // big-endian two's complement of 1 to 8 bytes
        for (int i = 1; i < length; i++) {
          v = (v << 8) | (page.get(data + i) & 0xFF);
        }
        row.add(v);
      } else {
        row.add(t == 8 ? (Object) 0L : t == 9 ? (Object) 1L : null);
      }
      data += length;
    }
    return row;
  }

  /** SQLite's varint at {@code at}: {value, the offset after it}, or null past the page. */
  private static long[] varint(ByteBuffer b, int at) {
    long v = 0;
    for (int i = 0; i < 9; i++) {
      if (at + i >= b.limit()) {
        return null;
      }
      int c = b.get(at + i) & 0xFF;
      if (i == 8) {
        return new long[] {(v << 8) | c, at + 9};
      }
      v = (v << 7) | (c & 0x7F);
      if (c < 0x80) {
        return new long[] {v, at + i + 1};
      }
    }
    return null;
  }
}
