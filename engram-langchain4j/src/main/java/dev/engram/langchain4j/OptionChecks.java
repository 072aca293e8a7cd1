package dev.engram.langchain4j;

/**
 * The checks of the request options that both {@link ModelSettings} and {@link
 * ChatModelLanguageModel} take, so that a value is accepted or refused, with the same message,
 * wherever it is given.
 */
final class OptionChecks {
  private OptionChecks() {}

  /** {@code value} if it is a temperature in [0, 2]. */
  static double temperature(double value) {
    if (!(value >= 0 && value <= 2)) {
      throw new IllegalArgumentException("temperature must be in [0, 2], got " + value);
    }
    return value;
  }

  /** {@code value} if it is at least 1; {@code name} names it in the message otherwise. */
  static int positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
    return value;
  }
}
