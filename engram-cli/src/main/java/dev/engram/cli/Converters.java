package dev.engram.cli;

import dev.engram.Ranking;
import dev.engram.ValidationException;
import dev.engram.json.JsonInput;
import java.time.Instant;
import java.time.LocalDate;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option value converters that accept the same forms as the JSON input (see {@link JsonInput}). */
public final class Converters {
  private Converters() {}

  /** The message without its field prefix: picocli names the option itself. */
  static String reason(ValidationException e) {
    String prefix = e.field() + ": ";
    return e.getMessage().startsWith(prefix)
        ? e.getMessage().substring(prefix.length())
        : e.getMessage();
  }

  /** ISO-8601 instant, offset or local date-time (UTC), or date (midnight UTC). */
  public static final class InstantConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      try {
        return JsonInput.instant("timestamp", value);
      } catch (ValidationException e) {
        throw new TypeConversionException(reason(e));
      }
    }
  }

  /** ISO-8601 date. */
  public static final class DateConverter implements ITypeConverter<LocalDate> {
    @Override
    public LocalDate convert(String value) {
      try {
        return JsonInput.date("date", value);
      } catch (ValidationException e) {
        throw new TypeConversionException(reason(e));
      }
    }
  }

  /**
   * Ranking steps as {@link Ranking#parse} reads them ({@code default}, {@code none}, {@code
   * default,diversity}).
   */
  public static final class RankingConverter implements ITypeConverter<Ranking> {
    @Override
    public Ranking convert(String value) {
      try {
        return Ranking.parse(value, "ranking");
      } catch (ValidationException e) {
        throw new TypeConversionException(reason(e));
      }
    }
  }
}
