package dev.engram.postgres;

import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.sql.FilterSql;
import dev.engram.spi.sql.Sql;
import java.time.LocalDate;

/**
 * The WHERE clause every read of memories shares: tenant, scope, expiry and filter, applied inside
 * PostgreSQL.
 */
final class Restriction {
  private static final FilterSql FILTERS = new FilterSql(new PostgresDialect());

  private Restriction() {}

  /** {@code " WHERE m.tenant = ? AND <scope> AND <unexpired> AND <filter>"}. */
  static Sql where(
      String tenant, Scope scope, Filter filter, boolean includeExpired, LocalDate today) {
    Sql sql = new Sql().append(" WHERE m.tenant = ").param(tenant);
    scope(sql, scope);
    if (!includeExpired) {
      sql.append(" AND (m.expiration_day IS NULL OR m.expiration_day > ")
          .param(Math.toIntExact(today.toEpochDay()))
          .append(")");
    }
    if (!(filter instanceof Filter.All)) {
      sql.append(" AND ").append(FILTERS.of(filter));
    }
    return sql;
  }

  /** Appends the conditions of a scope: each id it sets must equal the memory's. */
  static void scope(Sql sql, Scope scope) {
    scope.userId().ifPresent(id -> sql.append(" AND m.user_id = ").param(id));
    scope.agentId().ifPresent(id -> sql.append(" AND m.agent_id = ").param(id));
    scope.runId().ifPresent(id -> sql.append(" AND m.run_id = ").param(id));
  }
}
