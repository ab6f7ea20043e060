package site.ycsb.embedded;

import java.io.FileReader;
import java.io.Reader;
import java.util.Properties;

import site.ycsb.DB;
import site.ycsb.DBException;

/**
 * Opens a binding in a process of its own, for tests of what a second process sees.
 * Arguments: binding class, properties file, and {@code halt} to end with {@code Runtime.halt} (no exit hooks, as
 * a refused start's exit status or a kill ends a JVM). Exit 0: opened and closed; 3: init refused, with the
 * message on stdout.
 */
public final class ClientProcess {

  private ClientProcess() {
  }

  public static void main(String[] args) throws Exception {
    DB db = (DB) Class.forName(args[0]).getDeclaredConstructor().newInstance();
    Properties p = new Properties();
    try (Reader r = new FileReader(args[1])) {
      p.load(r);
    }
    db.setProperties(p);
    try {
      db.init();
    } catch (DBException e) {
      System.out.println("REFUSED: " + e.getMessage());
      System.exit(3);
    }
    db.cleanup();
    System.out.println("OPENED");
    System.out.flush();
    if (args.length > 2 && args[2].equals("halt")) {
      Runtime.getRuntime().halt(0);
    }
    System.exit(0);
  }
}
