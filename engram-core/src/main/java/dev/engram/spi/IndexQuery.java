package dev.engram.spi;

import dev.engram.Scope;
import dev.engram.filter.Filter;
import java.time.LocalDate;
import java.util.Objects;

/**
 * The restriction of an index search: tenant, scope, filter and expiry, all applied inside the
 * index.
 *
 * @param tenant the tenant
 * @param scope the scope
 * @param filter further conditions
 * @param includeExpired true to include memories expired on {@code today}
 * @param today the current date (UTC)
 */
public record IndexQuery(
    String tenant, Scope scope, Filter filter, boolean includeExpired, LocalDate today) {
  public IndexQuery {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(today, "today");
  }
}
