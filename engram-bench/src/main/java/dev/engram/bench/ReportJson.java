package dev.engram.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The JSON form of every benchmark report: indented, the same whether printed ({@code --json}) or
 * written to a file ({@code --out}), so that a file reads back as what was printed.
 */
public final class ReportJson {
  private static final ObjectMapper INDENTED =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ReportJson() {}

  /**
   * {@code report} as indented JSON text.
   *
   * @param what names the report in the error, for example {@code the scale report}
   */
  public static String text(Object report, String what) {
    try {
      return INDENTED.writeValueAsString(report);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialise " + what, e);
    }
  }

  /**
   * Writes {@code report} to {@code file} as indented JSON.
   *
   * @param what names the report in the error, for example {@code the scale report}
   */
  public static void write(Object report, Path file, String what) {
    try {
      INDENTED.writeValue(file.toFile(), report);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + what + " to " + file, e);
    }
  }
}
