package dev.engram.filter;

import dev.engram.MemoryItem;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * The reference semantics of {@link Filter}, evaluated on one memory in memory. Stores apply
 * filters inside their own query engines; their translations are tested against this class.
 *
 * <ul>
 *   <li>A metadata value that is a list matches a comparison if any element does.
 *   <li>Strings compare with strings, numbers with numbers, booleans with booleans; other pairs
 *       never match.
 *   <li>{@code ne} and {@code nin} are the negations of {@code eq} and {@code in}: a missing field
 *       passes them.
 *   <li>{@code contains} is a substring test, {@code icontains} the same ignoring case (root
 *       locale).
 *   <li>Time fields compare as instants; a memory without the time (no event time, no expiration)
 *       matches no comparison except {@code ne}/{@code nin}.
 * </ul>
 */
public final class FilterEvaluator {
  private FilterEvaluator() {}

  public static boolean matches(Filter filter, MemoryItem m) {
    if (filter instanceof Filter.All) {
      return true;
    }
    if (filter instanceof Filter.And and) {
      return and.parts().stream().allMatch(p -> matches(p, m));
    }
    if (filter instanceof Filter.Or or) {
      return or.parts().stream().anyMatch(p -> matches(p, m));
    }
    if (filter instanceof Filter.Not not) {
      return !matches(not.inner(), m);
    }
    if (filter instanceof Filter.Exists ex) {
      return value(ex.field(), m) != null;
    }
    Filter.Comparison c = (Filter.Comparison) filter;
    Object actual = value(c.field(), m);
    return switch (c.op()) {
      case NE -> !anyMatch(actual, Op.EQ, c.value());
      case NIN -> !anyMatch(actual, Op.IN, c.value());
      default -> anyMatch(actual, c.op(), c.value());
    };
  }

  /** The value of a field on a memory: a String, Double, Boolean, Instant, List, Map, or null. */
  public static Object value(Field field, MemoryItem m) {
    if (field.builtIn() == null) {
      Object v = m.metadata().get(field.name());
      return v instanceof Number n ? (Object) n.doubleValue() : v;
    }
    return switch (field.builtIn()) {
      case USER_ID -> m.userId();
      case AGENT_ID -> m.agentId();
      case RUN_ID -> m.runId();
      case ACTOR_ID -> m.actorId();
      case ROLE -> m.role() == null ? null : m.role().wireName();
      case HASH -> m.hash();
      case MEMORY -> m.text();
      case SOURCE_ID -> m.sourceIds().isEmpty() ? null : m.sourceIds();
      case CREATED_AT -> m.createdAt();
      case UPDATED_AT -> m.updatedAt();
      case EVENT_TIME -> m.eventTime();
      case EXPIRATION_DATE ->
          m.expirationDate() == null
              ? null
              : m.expirationDate().atStartOfDay().toInstant(ZoneOffset.UTC);
    };
  }

  private static boolean anyMatch(Object actual, Op op, Object expected) {
    if (actual instanceof List<?> list) {
      for (Object o : list) {
        if (scalarMatch(o instanceof Number n ? n.doubleValue() : o, op, expected)) {
          return true;
        }
      }
      return false;
    }
    return scalarMatch(actual, op, expected);
  }

  private static boolean scalarMatch(Object actual, Op op, Object expected) {
    if (actual == null) {
      return false;
    }
    return switch (op) {
      case EQ -> same(actual, expected);
      case IN -> ((List<?>) expected).stream().anyMatch(e -> same(actual, e));
      case CONTAINS -> actual instanceof String s && s.contains((String) expected);
      case ICONTAINS ->
          actual instanceof String s
              && s.toLowerCase(Locale.ROOT).contains(((String) expected).toLowerCase(Locale.ROOT));
      case GT, GTE, LT, LTE -> {
        Integer cmp = compare(actual, expected);
        yield cmp != null
            && switch (op) {
              case GT -> cmp > 0;
              case GTE -> cmp >= 0;
              case LT -> cmp < 0;
              default -> cmp <= 0;
            };
      }
      default -> throw new IllegalStateException("unexpected operator " + op);
    };
  }

  private static boolean same(Object a, Object b) {
    Integer cmp = compare(a, b);
    if (cmp != null) {
      return cmp == 0;
    }
    return a instanceof Boolean && a.equals(b);
  }

  /** Compares values of the same kind, or returns null if their kinds differ. */
  private static Integer compare(Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return x.compareTo(y);
    }
    if (a instanceof Instant x && b instanceof Instant y) {
      return x.compareTo(y);
    }
    return null;
  }
}
