package dev.engram;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks and deep-copies JSON-like values (null, String, Boolean, Number, List, Map with String
 * keys) so that metadata can be shared safely. Anything else is rejected with a {@link
 * ValidationException}.
 */
public final class JsonValues {
  /** Deepest nesting accepted in metadata. */
  public static final int MAX_DEPTH = 16;

  private JsonValues() {}

  /** An immutable deep copy of a JSON object, keeping key order. */
  public static Map<String, Object> immutableObject(Map<String, ?> map) {
    return copyObject("metadata", map, 0);
  }

  private static Map<String, Object> copyObject(String path, Map<?, ?> map, int depth) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String key) || key.isEmpty()) {
        throw new ValidationException(
            path, "keys must be non-empty strings, got '" + e.getKey() + "'");
      }
      out.put(key, copy(path + "." + key, e.getValue(), depth + 1));
    }
    return Collections.unmodifiableMap(out);
  }

  private static Object copy(String path, Object v, int depth) {
    if (depth > MAX_DEPTH) {
      throw new ValidationException(path, "nested deeper than " + MAX_DEPTH + " levels");
    }
    if (v == null || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Integer
        || v instanceof Long
        || v instanceof Short
        || v instanceof Byte
        || v instanceof BigInteger
        || v instanceof BigDecimal) {
      return v;
    }
    if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new ValidationException(path, "must be a finite number, got " + d);
      }
      return d;
    }
    if (v instanceof Float f) {
      return copy(path, f.doubleValue(), depth);
    }
    if (v instanceof Map<?, ?> m) {
      return copyObject(path, m, depth);
    }
    if (v instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object o : list) {
        out.add(copy(path + "[]", o, depth + 1));
      }
      return Collections.unmodifiableList(out);
    }
    throw new ValidationException(
        path,
        "unsupported value type "
            + v.getClass().getSimpleName()
            + " (use strings, numbers, booleans, lists or maps)");
  }
}
