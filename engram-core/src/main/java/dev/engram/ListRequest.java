package dev.engram;

import dev.engram.filter.Filter;
import java.util.Objects;

/**
 * A page of memories in a scope, newest first (by creation time, then id).
 *
 * @param scope whose memories
 * @param filter further conditions; {@link Filter#all()} for none
 * @param offset how many to skip (0 or more)
 * @param limit page size (1..{@value #MAX_LIMIT})
 * @param includeExpired true to include expired memories
 */
public record ListRequest(
    Scope scope, Filter filter, int offset, int limit, boolean includeExpired) {
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = 10_000;

  public ListRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(filter, "filter");
    if (offset < 0) {
      throw new ValidationException("offset", "must be 0 or more, got " + offset);
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new ValidationException(
          "limit", "must be between 1 and " + MAX_LIMIT + ", got " + limit);
    }
  }

  /** The first page of a scope, unfiltered. */
  public static ListRequest of(Scope scope) {
    return new ListRequest(scope, Filter.all(), 0, DEFAULT_LIMIT, false);
  }

  public ListRequest withFilter(Filter f) {
    return new ListRequest(scope, f, offset, limit, includeExpired);
  }

  public ListRequest withPage(int newOffset, int newLimit) {
    return new ListRequest(scope, filter, newOffset, newLimit, includeExpired);
  }

  public ListRequest withIncludeExpired(boolean value) {
    return new ListRequest(scope, filter, offset, limit, value);
  }
}
