package dev.engram.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import org.sqlite.Collation;
import org.sqlite.Function;

/**
 * Java functions registered on every connection so that SQL comparisons agree exactly with {@link
 * dev.engram.filter.FilterEvaluator}, which runs on Java strings:
 *
 * <ul>
 *   <li>{@value #LOWER}{@code (text)}: {@link String#toLowerCase(Locale)} with {@link Locale#ROOT},
 *       full Unicode (SQLite's own {@code lower()} folds ASCII only), for {@code icontains}.
 *   <li>collation {@value #UTF16}: {@link String#compareTo}, which orders UTF-16 code units
 *       (SQLite's BINARY collation orders UTF-8 bytes, which differs for supplementary characters),
 *       for string range comparisons.
 * </ul>
 *
 * sqlite-jdbc's function objects keep per-call state, so each connection gets its own instances.
 */
final class SqlFunctions {
  /** Name of the Unicode lower-case function. */
  static final String LOWER = "engram_lower";

  /** Name of the Java string-order collation. */
  static final String UTF16 = "ENGRAM_UTF16";

  private SqlFunctions() {}

  static void register(Connection connection) throws SQLException {
    Function.create(connection, LOWER, new Lower(), 1, Function.FLAG_DETERMINISTIC);
    Collation.create(connection, UTF16, new JavaOrder());
  }

  private static final class Lower extends Function {
    @Override
    protected void xFunc() throws SQLException {
      String s = value_text(0);
      if (s == null) {
        result();
      } else {
        result(s.toLowerCase(Locale.ROOT));
      }
    }
  }

  private static final class JavaOrder extends Collation {
    @Override
    protected int xCompare(String a, String b) {
      return a.compareTo(b);
    }
  }
}
