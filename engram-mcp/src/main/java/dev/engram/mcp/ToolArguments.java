package dev.engram.mcp;

import dev.engram.JsonValues;
import dev.engram.ValidationException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed access to a tool call's arguments (the JSON object the client sent, as plain Java values).
 * Every accessor throws a {@link ValidationException} naming the argument when a value has the
 * wrong type or range, so that the call ends in a tool error the model can correct. Immutable.
 */
final class ToolArguments {
  private final Map<String, Object> values;

  private ToolArguments(Map<String, Object> values) {
    this.values = values;
  }

  /**
   * Wraps a call's arguments.
   *
   * @param values the arguments (null means none)
   * @param allowed the argument names the tool declares; any other name is rejected
   */
  static ToolArguments of(Map<String, Object> values, Set<String> allowed) {
    Map<String, Object> v = values == null ? Map.of() : values;
    Set<String> unknown = new TreeSet<>(v.keySet());
    unknown.removeAll(allowed);
    if (!unknown.isEmpty()) {
      String name = unknown.iterator().next();
      throw new ValidationException(
          name, "unknown argument; this tool takes " + new TreeSet<>(allowed));
    }
    return new ToolArguments(v);
  }

  Optional<String> string(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof String s)) {
      throw new ValidationException(name, "must be a string, got " + typeName(v));
    }
    return Optional.of(s);
  }

  String requiredString(String name) {
    String s = string(name).orElseThrow(() -> new ValidationException(name, "is required"));
    if (s.isBlank()) {
      throw new ValidationException(name, "must not be empty");
    }
    return s;
  }

  Optional<Boolean> bool(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof Boolean b)) {
      throw new ValidationException(name, "must be true or false, got " + typeName(v));
    }
    return Optional.of(b);
  }

  /** A whole number in [min, max]; a number with a zero fraction (3.0) counts as whole. */
  Optional<Integer> integer(String name, int min, int max) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof Number n)) {
      throw new ValidationException(name, "must be a whole number, got " + typeName(v));
    }
    double d = n.doubleValue();
    if (d != Math.rint(d) || Double.isInfinite(d)) {
      throw new ValidationException(name, "must be a whole number, got " + v);
    }
    if (d < min || d > max) {
      throw new ValidationException(name, "must be between " + min + " and " + max + ", got " + v);
    }
    return Optional.of((int) d);
  }

  Optional<Double> number(String name, double min, double max) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof Number n)) {
      throw new ValidationException(name, "must be a number, got " + typeName(v));
    }
    double d = n.doubleValue();
    if (!(d >= min && d <= max)) {
      throw new ValidationException(name, "must be between " + min + " and " + max + ", got " + v);
    }
    return Optional.of(d);
  }

  /** A JSON object, as an immutable map of JSON values. */
  Optional<Map<String, Object>> object(String name) {
    Object v = values.get(name);
    if (v == null) {
      return Optional.empty();
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw new ValidationException(name, "must be a JSON object, got " + typeName(v));
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> typed = (Map<String, ?>) m;
    try {
      return Optional.of(JsonValues.immutableObject(typed));
    } catch (ValidationException e) {
      throw new ValidationException(name, e.getMessage());
    } catch (ClassCastException e) {
      throw new ValidationException(name, "keys must be strings");
    }
  }

  /** The raw value (for arguments of more than one type), or empty. */
  Optional<Object> raw(String name) {
    return Optional.ofNullable(values.get(name));
  }

  static String typeName(Object v) {
    if (v instanceof String) {
      return "a string";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    if (v instanceof Number) {
      return "a number";
    }
    if (v instanceof List) {
      return "an array";
    }
    if (v instanceof Map) {
      return "an object";
    }
    return v.getClass().getSimpleName();
  }
}
