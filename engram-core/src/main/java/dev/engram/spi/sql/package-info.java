/**
 * <b>SPI.</b> The SQL that every relational backend shares: {@link dev.engram.spi.sql.Sql}, a piece
 * of SQL text built together with its bound parameters, and {@link dev.engram.spi.sql.FilterSql},
 * the one translation of Engram's filter language into a SQL condition on the {@code memories}
 * table, which asks a {@link dev.engram.spi.sql.SqlDialect} for the few fragments in which SQL
 * databases differ (JSON access, type names, case folding, Java's string order, literals and
 * casts). For implementers of SQL storage backends (engram-sqlite, engram-postgres); applications
 * call none of it. Uses only {@code java.sql}, so engram-core pulls in no JDBC driver.
 */
package dev.engram.spi.sql;
