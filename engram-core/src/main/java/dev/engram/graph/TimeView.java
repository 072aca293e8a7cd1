package dev.engram.graph;

import java.time.Instant;
import java.util.Objects;

/**
 * Which relations a read sees, by event time. A relation is visible at instant {@code t} if it
 * began on or before {@code t} (or has no {@code validAt}) and had not ended by {@code t} ({@code
 * invalidAt} null or after {@code t}). With {@code includeInvalidated}, every relation is visible
 * whatever its times.
 *
 * @param asOf the instant to look at; null means "now" (the engine resolves it with its clock
 *     before calling a store, see {@link #at(Instant)})
 * @param includeInvalidated true to see every relation, ended or not
 */
public record TimeView(Instant asOf, boolean includeInvalidated) {
  /** Currently valid relations only (the default). */
  public static final TimeView CURRENT = new TimeView(null, false);

  /** Every relation, including invalidated ones. */
  public static final TimeView ALL = new TimeView(null, true);

  /** The relations valid at {@code instant}. */
  public static TimeView asOf(Instant instant) {
    return new TimeView(Objects.requireNonNull(instant, "instant"), false);
  }

  /** This view with "now" replaced by {@code now}; a view with an instant is returned as is. */
  public TimeView at(Instant now) {
    return asOf != null
        ? this
        : new TimeView(Objects.requireNonNull(now, "now"), includeInvalidated);
  }

  /**
   * The instant a view that excludes invalidated relations looks at. Stores receive resolved views
   * and read the time from here, never from a clock: "now" is the engine's clock reading, given by
   * {@link #at(Instant)}.
   *
   * @throws IllegalStateException if this view is unresolved ("now", not yet given an instant)
   */
  public Instant resolvedInstant() {
    if (asOf == null) {
      throw new IllegalStateException(
          "this time view means \"now\" and was not resolved; call at(clock.instant())"
              + " before reading relations with it");
    }
    return asOf;
  }

  /**
   * True if the relation is visible.
   *
   * @throws IllegalStateException if the view excludes invalidated relations but was not resolved
   *     (see {@link #resolvedInstant()})
   */
  public boolean admits(Relation r) {
    return admits(r.validAt(), r.invalidAt());
  }

  /**
   * True if a relation valid from {@code validAt} until {@code invalidAt} (each null if unknown or
   * open) is visible: what {@link #admits(Relation)} decides, for a store that keeps the two times
   * apart from the relation.
   *
   * @throws IllegalStateException if the view excludes invalidated relations but was not resolved
   *     (see {@link #resolvedInstant()})
   */
  public boolean admits(Instant validAt, Instant invalidAt) {
    if (includeInvalidated) {
      return true;
    }
    Instant t = resolvedInstant();
    return (validAt == null || !validAt.isAfter(t)) && (invalidAt == null || invalidAt.isAfter(t));
  }
}
