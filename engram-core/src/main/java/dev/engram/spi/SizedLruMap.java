package dev.engram.spi;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.ToLongFunction;

/**
 * A map that keeps its entries within a budget, the least recently used (read or written) dropped
 * first: the eviction every cache of a store shares (decoded records, embeddings, graph vectors),
 * each with its own measure of an entry's size and its own rule for what a write makes stale. An
 * entry larger than the whole budget is not kept. Not thread-safe: a cache holds it under its own
 * lock.
 *
 * @param <K> the key
 * @param <V> the value
 */
public final class SizedLruMap<K, V> {
  private final long budget;
  private final ToLongFunction<? super V> sizeOf;
  private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(256, 0.75f, true);
  private long size;

  /**
   * A map of at most {@code budget} in the units of {@code sizeOf} (0 keeps nothing).
   *
   * @throws IllegalArgumentException if {@code budget} is negative
   */
  public SizedLruMap(long budget, ToLongFunction<? super V> sizeOf) {
    if (budget < 0) {
      throw new IllegalArgumentException("the budget must be 0 or more, got " + budget);
    }
    this.budget = budget;
    this.sizeOf = Objects.requireNonNull(sizeOf, "sizeOf");
  }

  /** The value of {@code key}, which becomes the most recently used. */
  public Optional<V> get(K key) {
    return Optional.ofNullable(entries.get(key));
  }

  /**
   * Keeps {@code value} under {@code key} as the most recently used, replacing what the key held,
   * and drops the least recently used beyond the budget; a value larger than the budget is not kept
   * (and the key then holds nothing).
   */
  public void put(K key, V value) {
    Objects.requireNonNull(value, "value");
    long s = sizeOf.applyAsLong(value);
    if (s > budget) {
      remove(key);
      return;
    }
    V old = entries.put(key, value);
    size += s - (old == null ? 0 : sizeOf.applyAsLong(old));
    Iterator<V> eldest = entries.values().iterator();
    while (size > budget && eldest.hasNext()) {
      size -= sizeOf.applyAsLong(eldest.next());
      eldest.remove();
    }
  }

  /** Drops {@code key}'s entry, if any. */
  public void remove(K key) {
    V old = entries.remove(key);
    if (old != null) {
      size -= sizeOf.applyAsLong(old);
    }
  }

  /** Drops every entry {@code drop} accepts. */
  public void removeIf(BiPredicate<? super K, ? super V> drop) {
    Iterator<Map.Entry<K, V>> it = entries.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<K, V> e = it.next();
      if (drop.test(e.getKey(), e.getValue())) {
        size -= sizeOf.applyAsLong(e.getValue());
        it.remove();
      }
    }
  }

  /** The entries kept. */
  public int count() {
    return entries.size();
  }

  /** The sum of the kept entries' sizes, at most the budget. */
  public long size() {
    return size;
  }

  /** The budget. */
  public long budget() {
    return budget;
  }
}
