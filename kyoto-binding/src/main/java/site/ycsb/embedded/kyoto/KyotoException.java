package site.ycsb.embedded.kyoto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** A failed Kyoto Cabinet call: the library's error code and message for the calling thread. */
public final class KyotoException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String detail;

  /** Called from kyotojni.c; the message is the library's bytes (usually ASCII, maybe a path). */
  KyotoException(int code, byte[] message) {
    this(code, new String(message, StandardCharsets.UTF_8));
  }

  KyotoException(int code, String detail) {
    super(codeName(code) + ": " + detail);
    this.code = code;
    this.detail = detail;
  }

  /** The kclangc error code (KCEINVALID = 2, KCESYSTEM = 9, ...). */
  public int code() {
    return code;
  }

  /** The library's supplement message ("invalid module checksum"). */
  public String detail() {
    return detail;
  }

  /** The names kcecodename gives the codes. */
  static String codeName(int code) {
    switch (code) {
      case KyotoNative.ESUCCESS: return "success";
      case KyotoNative.ENOIMPL: return "not implemented";
      case KyotoNative.EINVALID: return "invalid operation";
      case KyotoNative.ENOREPOS: return "no repository";
      case KyotoNative.ENOPERM: return "no permission";
      case KyotoNative.EBROKEN: return "broken file";
      case KyotoNative.EDUPREC: return "record duplication";
      case KyotoNative.ENOREC: return "no record";
      case KyotoNative.ELOGIC: return "logical inconsistency";
      case KyotoNative.ESYSTEM: return "system error";
      default: return "miscellaneous error " + code;
    }
  }
}
