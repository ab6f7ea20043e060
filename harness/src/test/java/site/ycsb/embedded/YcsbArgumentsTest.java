package site.ycsb.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's reading of YCSB's command line gives the properties YCSB's Client gives itself. */
class YcsbArgumentsTest {

  @TempDir
  Path tmp;

  /** Client's own (private) parseArguments, called here only to compare. */
  private static Properties clientsOwn(String[] args) throws Exception {
    Method parse = site.ycsb.Client.class.getDeclaredMethod("parseArguments", String[].class);
    parse.setAccessible(true);
    return (Properties) parse.invoke(null, (Object) args);
  }

  @Test
  void theSamePropertiesAsYcsbsClientFromFilesOptionsAndOverrides() throws Exception {
    Path first = tmp.resolve("first");
    Path second = tmp.resolve("second");
    Files.writeString(first, "workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1000\nreadproportion=0.5\n"
        + "threadcount=2\n");
    Files.writeString(second, "recordcount=2000\nfieldcount=1\n");
    String[][] lines = {
        {"-db", "x.Y", "-load", "-s", "-P", first.toString(), "-P", second.toString(), "-p", "recordcount=7",
            "-threads", "3", "-target", "100", "-l", "lab", "-p", "a=b=c"},
        {"-db", "x.Y", "-t", "-P", second.toString(), "-p", "workload=w.W", "-db", "x.Z", "-p", "path="},
        {"-P", first.toString()},
    };
    for (String[] args : lines) {
      Properties ours = YcsbArguments.parse(args);
      assertEquals(clientsOwn(args), ours, String.join(" ", args));
    }
    Properties p = YcsbArguments.parse(lines[0]);
    assertEquals("7", p.getProperty("recordcount"));
    assertEquals("3", p.getProperty("threadcount"));
    assertEquals("b=c", p.getProperty("a"));
  }

  @Test
  void aTargetWithAFractionIsReadOnlyWhenAsked() throws Exception {
    Path file = tmp.resolve("w");
    Files.writeString(file, "workload=site.ycsb.workloads.CoreWorkload\n");
    String[] whole = {"-t", "-P", file.toString(), "-target", "+1500"};
    assertEquals(clientsOwn(whole), YcsbArguments.parse(whole, true), "a whole number as Client reads it");
    assertEquals("1500", YcsbArguments.parse(whole, true).getProperty("target"));
    String[] fractional = {"-t", "-P", file.toString(), "-target", "1500.5"};
    assertNull(YcsbArguments.parse(fractional), "Client's reading");
    assertEquals("1500.5", YcsbArguments.parse(fractional, true).getProperty("target"));
    assertNull(YcsbArguments.parse(new String[] {"-P", file.toString(), "-target", "fast"}, true));
  }

  @Test
  void whatClientWouldRefuseIsLeftToIt() throws Exception {
    Path file = tmp.resolve("w");
    Files.writeString(file, "workload=site.ycsb.workloads.CoreWorkload\n");
    String w = file.toString();
    assertNull(YcsbArguments.parse(new String[] {"-P", w, "-p", "noequals"}));
    assertNull(YcsbArguments.parse(new String[] {"-P", w, "-bogus"}));
    assertNull(YcsbArguments.parse(new String[] {"-P", w, "-threads"}));
    assertNull(YcsbArguments.parse(new String[] {"-P", w, "-threads", "two"}));
    assertNull(YcsbArguments.parse(new String[] {"-P", w, "trailing"}));
    assertNull(YcsbArguments.parse(new String[] {"-P", tmp.resolve("missing").toString()}));
    assertNull(YcsbArguments.parse(new String[] {"-db", "x.Y"})); // no workload
  }
}
