package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class TextAndJsonExporterTest {

  @Test
  void writesTheJsonFileAndTheTextLines() throws Exception {
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
    try {
      TextAndJsonExporter e = new TextAndJsonExporter(file);
      e.write("OVERALL", "RunTime(ms)", 123L);
      e.write("READ", "Operations", 10);
      e.write("READ", "AverageLatency(us)", 4.5);
      e.close();
      System.out.println("still open");
    } finally {
      System.setOut(saved);
    }
    String json = file.toString(StandardCharsets.UTF_8);
    assertTrue(json.contains("\"metric\" : \"OVERALL\"") && json.contains("\"value\" : 123"), json);
    assertTrue(json.contains("\"value\" : 4.5") && json.trim().startsWith("[") && json.trim().endsWith("]"), json);
    assertEquals(String.join(System.lineSeparator(), "[OVERALL], RunTime(ms), 123", "[READ], Operations, 10",
        "[READ], AverageLatency(us), 4.5", "still open", ""), stdout.toString(StandardCharsets.UTF_8));
  }
}
