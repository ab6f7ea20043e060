package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class KeysTest {

  private static final byte[] ASCII_KEY = {'u', 's', 'e', 'r', '4', '2'};

  @Test
  void asciiKeysAreTheSameBytesInBothEncodings() {
    assertArrayEquals(ASCII_KEY, Keys.UTF8.bytes("user42"));
    assertArrayEquals(ASCII_KEY, Keys.LATIN1.bytes("user42"));
    assertArrayEquals(new byte[] {'?'}, Keys.UTF8.bytes("?"));
    assertArrayEquals(new byte[0], Keys.UTF8.bytes(""));
  }

  @Test
  void utf8KeepsKeysThatMixedLatin1AndUtf8MadeEqualApart() {
    // Latin-1 when every char fits, else UTF-8, gave both C3 A9 C4 80.
    byte[] mixed = Keys.UTF8.bytes("\u00E9\u0100");
    byte[] fourChars = Keys.UTF8.bytes("\u00C3\u00A9\u00C4\u0080");
    assertArrayEquals(new byte[] {(byte) 0xC3, (byte) 0xA9, (byte) 0xC4, (byte) 0x80}, mixed);
    assertArrayEquals(new byte[] {(byte) 0xC3, (byte) 0x83, (byte) 0xC2, (byte) 0xA9, (byte) 0xC3, (byte) 0x84,
        (byte) 0xC2, (byte) 0x80}, fourChars);
    assertFalse(Arrays.equals(mixed, fourChars));
    assertEquals("\u00E9\u0100", Keys.UTF8.string(mixed));
    assertEquals("\u00C3\u00A9\u00C4\u0080", Keys.UTF8.string(fourChars));
  }

  @Test
  void aSurrogatePairIsFourBytesOfUtf8() {
    String emoji = "k\uD83D\uDE00";
    assertArrayEquals(new byte[] {'k', (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}, Keys.UTF8.bytes(emoji));
    assertEquals(emoji, Keys.UTF8.string(Keys.UTF8.bytes(emoji)));
  }

  @Test
  void aLoneSurrogateIsRefusedNotTurnedIntoAQuestionMark() {
    for (String key : new String[] {"\uD800", "a\uDC00", "\u00E9\uD800", "x\uD83D", "\uDE00\uD83D"}) {
      Keys.UnencodableKeyException e = assertThrows(Keys.UnencodableKeyException.class, () -> Keys.UTF8.bytes(key),
          Keys.escape(key));
      assertTrue(e.getMessage().contains("\"" + Keys.escape(key) + "\"") && e.getMessage().contains("utf8")
          && e.getMessage().contains("lone surrogate"), e.getMessage());
    }
    Keys.UnencodableKeyException e = assertThrows(Keys.UnencodableKeyException.class, () -> Keys.UTF8.bytes("\uD800"));
    assertTrue(e.getMessage().contains("\\uD800"), "the key is escaped in the message: " + e.getMessage());
  }

  @Test
  void latin1IsOneBytePerCharInCharOrderAndRefusesCharsAbove255() {
    char[] all = new char[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (char) i;
    }
    byte[] b = Keys.LATIN1.bytes(new String(all));
    assertEquals(256, b.length);
    for (int i = 0; i < 256; i++) {
      assertEquals((byte) i, b[i]);
    }
    assertEquals(new String(all), Keys.LATIN1.string(b));
    String binaryKey = "\u0000\u0000\u0000\u0000\u0000\u0001\u00FF\u0080";
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 1, (byte) 0xFF, (byte) 0x80}, Keys.LATIN1.bytes(binaryKey));
    Keys.UnencodableKeyException e = assertThrows(Keys.UnencodableKeyException.class,
        () -> Keys.LATIN1.bytes("\u00E9\u0100"));
    assertTrue(e.getMessage().contains("\\u00E9\\u0100") && e.getMessage().contains("latin1")
        && e.getMessage().contains("U+0100"), e.getMessage());
    assertThrows(Keys.UnencodableKeyException.class, () -> Keys.LATIN1.bytes("\uD800"));
  }

  @Test
  void theEncodingFollowsKeyformatUnlessKeyencodingIsSet() {
    assertSame(Keys.UTF8, chosen());
    assertSame(Keys.UTF8, chosen("keyformat", "decimal"));
    assertSame(Keys.LATIN1, chosen("keyformat", "binary"));
    assertSame(Keys.UTF8, chosen("keyformat", "binary", "keyencoding", "utf8"));
    assertSame(Keys.LATIN1, chosen("keyencoding", "latin1"));
    assertSame(Keys.UTF8, chosen("keyformat", "binary", "leveldb.keyencoding", "utf8"));
    assertSame(Keys.LATIN1, chosen("keyencoding", "auto", "keyformat", "binary"));
    EngineProperties.BadPropertyException e = assertThrows(EngineProperties.BadPropertyException.class,
        () -> chosen("keyencoding", "ascii"));
    assertTrue(e.getMessage().contains("keyencoding") && e.getMessage().contains("'ascii'"), e.getMessage());
  }

  @Test
  void escapeShowsEveryCharOutsidePrintableAscii() {
    assertEquals("user\\u0022\\u005C\\u00E9\\uD800\\u0000", Keys.escape("user\"\\\u00E9\uD800\u0000"));
    assertTrue(Keys.escape("k".repeat(500)).endsWith("... (500 chars)"));
  }

  private static Keys chosen(String... nameValue) {
    Properties p = new Properties();
    for (int i = 0; i < nameValue.length; i += 2) {
      p.setProperty(nameValue[i], nameValue[i + 1]);
    }
    return Keys.fromProperties(new EngineProperties(p, "leveldb"), p);
  }
}
