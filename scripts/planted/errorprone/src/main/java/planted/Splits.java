package planted;

/** An Error Prone warning (StringSplitter), which -Werror turns into an error. */
public final class Splits {
  private Splits() {}

  /** How many non-empty comma-separated parts {@code csv} has. */
  public static int parts(String csv) {
    int n = 0;
    for (String part : csv.split(",")) {
      if (!part.isEmpty()) {
        n++;
      }
    }
    return n;
  }
}
