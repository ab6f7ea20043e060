package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataLayoutTest {

  @TempDir
  Path tmp;

  @Test
  void aWrittenLayoutReadsBackEntryForEntry() throws IOException {
    assertNull(DataLayout.read(DataLayout.recordOf(tmp, null)), "no record yet");
    // a prefix with the characters the properties format escapes, and one outside ASCII
    DataLayout layout = DataLayout.empty().with("recordlayout", "bare", "recordlayout=auto with fieldcount=1")
        .with("fieldnameprefix", "#a=b: c\\d\u00E9\n", null).with("keyencoding", "latin1", null);
    layout.write(DataLayout.recordOf(tmp, null));
    DataLayout back = DataLayout.read(DataLayout.recordOf(tmp, null));
    assertEquals(Map.of("recordlayout", "bare", "fieldnameprefix", "#a=b: c\\d\u00E9\n", "keyencoding", "latin1"),
        back.entries());
    assertEquals(layout, back, "equal by entries: how the run chose them is not recorded");
    assertFalse(Files.exists(tmp.resolve(DataLayout.FILE + DataLayout.TEMPORARY)), "the temporary file was renamed");
    DataLayout other = layout.with("keyencoding", "utf8", null);
    other.write(DataLayout.recordOf(tmp, null));
    assertEquals("utf8", DataLayout.read(DataLayout.recordOf(tmp, null)).get("keyencoding"),
        "a second write replaces the record");
  }

  @Test
  void aDisagreementNamesEveryEntryWithBothValuesAndHowThisRunChoseIt() {
    DataLayout recorded = DataLayout.empty().with("keyencoding", "latin1", null).with("recordlayout", "bare", null)
        .with("fieldnameprefix", "field", null);
    DataLayout wanted = DataLayout.empty().with("keyencoding", "utf8", "the default auto, with keyformat=ycsb")
        .with("recordlayout", "bare", null);
    Path record = DataLayout.recordOf(tmp, null);
    IOException e = assertThrows(IOException.class, () -> wanted.refuseDisagreement(record, recorded));
    assertEquals("data directory " + tmp.toAbsolutePath() + " holds a database laid out with keyencoding = latin1 when"
        + " it was created, keyencoding = utf8 in this run (the default auto, with keyformat=ycsb); fieldnameprefix ="
        + " field when it was created, fieldnameprefix = (none) in this run (recorded in .ycsb-embedded.layout):"
        + " refusing to open it, and nothing in it was changed. Run with keyencoding=latin1 fieldnameprefix=field as it"
        + " was written, point path elsewhere, or use destroy=true to start over", e.getMessage());
  }

  @Test
  void noRecordAndAnEqualRecordPass() throws IOException {
    DataLayout wanted = DataLayout.empty().with("keyencoding", "utf8", "the default");
    wanted.refuseDisagreement(DataLayout.recordOf(tmp, null), null);
    wanted.refuseDisagreement(DataLayout.recordOf(tmp, null), DataLayout.empty().with("keyencoding", "utf8", null));
  }

  @Test
  void aDatabaseFileHasARecordOfItsOwn() {
    assertEquals(tmp.resolve(".ycsb-embedded.layout"), DataLayout.recordOf(tmp, null));
    assertEquals(tmp.resolve(".ycsb-embedded.layout.b.db"), DataLayout.recordOf(tmp, "b.db"));
  }

  @Test
  void anUnreadableRecordIsRefusedNamingIt() throws IOException {
    Files.writeString(tmp.resolve(DataLayout.FILE), "keyencoding=\\u12\n"); // a broken \\u escape
    IOException e = assertThrows(IOException.class, () -> DataLayout.read(DataLayout.recordOf(tmp, null)));
    assertTrue(e.getMessage().contains("cannot read the layout record " + tmp.resolve(DataLayout.FILE)),
        e.getMessage());
  }
}
