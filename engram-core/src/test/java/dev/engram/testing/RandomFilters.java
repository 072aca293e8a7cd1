package dev.engram.testing;

import dev.engram.MemoryItem;
import dev.engram.filter.BuiltInField;
import dev.engram.filter.Field;
import dev.engram.filter.Filter;
import dev.engram.filter.FilterEvaluator;
import dev.engram.filter.Op;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random filters over every operator, every built-in field and the metadata keys of {@link
 * RandomMemories}, nested with AND, OR and NOT. Values are drawn from the memories themselves (with
 * near misses) so that filters match some memories and not others.
 */
public final class RandomFilters {
  private final Random random;
  private final RandomMemories values;
  private final List<MemoryItem> items;

  /** Filters drawn from {@code random} whose values come from {@code items} and {@code values}. */
  public RandomFilters(Random random, RandomMemories values, List<MemoryItem> items) {
    this.random = random;
    this.values = values;
    this.items = items;
  }

  /** A random filter; call with depth 0. */
  public Filter filter(int depth) {
    if (depth >= 3 || random.nextInt(10) < 5) {
      return leaf();
    }
    return switch (random.nextInt(3)) {
      case 0 -> Filter.and(parts(depth));
      case 1 -> Filter.or(parts(depth));
      default -> Filter.not(filter(depth + 1));
    };
  }

  private List<Filter> parts(int depth) {
    List<Filter> parts = new ArrayList<>();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      parts.add(filter(depth + 1));
    }
    return parts;
  }

  private Filter leaf() {
    Field field = field();
    if (random.nextInt(10) == 0) {
      return new Filter.Exists(field);
    }
    Op op = Op.values()[random.nextInt(Op.values().length)];
    boolean time = field.builtIn() != null && field.builtIn().kind() == BuiltInField.Kind.TIME;
    if (time && (op == Op.CONTAINS || op == Op.ICONTAINS)) {
      op = Op.GTE;
    }
    if (op == Op.CONTAINS || op == Op.ICONTAINS) {
      return new Filter.Comparison(field, op, substring(field));
    }
    if (op.isSet()) {
      List<Object> list = new ArrayList<>();
      for (int i = 1 + random.nextInt(3); i > 0; i--) {
        list.add(value(field, false));
      }
      return new Filter.Comparison(field, op, list);
    }
    return new Filter.Comparison(field, op, value(field, op.isRange()));
  }

  private Field field() {
    if (random.nextInt(10) < 6) {
      String key = values.pick(RandomMemories.KEYS);
      return Field.of(key.equals("role") || random.nextBoolean() ? "metadata." + key : key);
    }
    return Field.of(BuiltInField.values()[random.nextInt(BuiltInField.values().length)].wireName());
  }

  private Object value(Field field, boolean range) {
    if (field.isMetadata()) {
      Object v = random.nextInt(3) == 0 ? existing(field) : values.scalar();
      return v == null || (range && v instanceof Boolean) ? values.string() : v;
    }
    if (field.builtIn().kind() == BuiltInField.Kind.TIME) {
      Object v = existing(field);
      Instant t = v instanceof Instant i ? i : RandomMemories.T0;
      return switch (random.nextInt(5)) {
        case 0 -> t.plusNanos(1);
        case 1 -> t.minusNanos(1);
        case 2 -> "2024-05-01";
        case 3 -> t.toEpochMilli();
        default -> t;
      };
    }
    Object v = existing(field);
    return v instanceof String s && random.nextInt(4) > 0 ? s : values.string();
  }

  /**
   * The value of {@code field} on a random memory (a random element of a list) if it is a scalar,
   * else null.
   */
  private Object existing(Field field) {
    Object v = FilterEvaluator.value(field, items.get(random.nextInt(items.size())));
    if (v instanceof List<?> list) {
      v = list.isEmpty() ? null : list.get(random.nextInt(list.size()));
    }
    if (v instanceof Number n) {
      v = n.doubleValue();
    }
    return v instanceof String
            || v instanceof Double
            || v instanceof Boolean
            || v instanceof Instant
        ? v
        : null;
  }

  private String substring(Field field) {
    Object v = existing(field);
    if (v instanceof String s && random.nextBoolean() && !s.isEmpty()) {
      int from = random.nextInt(s.length());
      return s.substring(from, from + random.nextInt(Math.min(4, s.length() - from) + 1));
    }
    return values.pick(values.pieces());
  }
}
