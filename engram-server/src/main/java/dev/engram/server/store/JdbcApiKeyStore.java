package dev.engram.server.store;

import dev.engram.server.auth.ApiKeyInfo;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.KeySecrets;
import dev.engram.server.auth.NewApiKey;
import dev.engram.server.auth.Principal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * API keys in a SQL table: the key's SHA-256 hash, never the key; every check reads the table (no
 * cache). The one implementation behind {@code server.db} ({@link SqliteApiKeyStore}) and
 * PostgreSQL ({@code PostgresApiKeyStore}).
 */
public abstract class JdbcApiKeyStore implements ApiKeyStore {
  private final SqlTransactions db;
  private final String table;
  private final Clock clock;

  /**
   * @param db where the SQL runs
   * @param table the keys' table (a constant of the subclass, never user input)
   * @param clock the clock for creation and revocation times
   */
  protected JdbcApiKeyStore(SqlTransactions db, String table, Clock clock) {
    this.db = Objects.requireNonNull(db, "db");
    this.table = Objects.requireNonNull(table, "table");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public NewApiKey create(String tenant, KeyRole role, String label) {
    NewApiKey minted = NewApiKey.mint(tenant, role, label, clock.instant());
    ApiKeyInfo info = minted.info();
    db.write(
        "create an API key",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO "
                      + table
                      + " (id, tenant, role, label, prefix, hash,"
                      + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, info.id());
            ps.setString(2, info.tenant());
            ps.setString(3, info.role().wireName());
            ps.setString(4, info.label());
            ps.setString(5, info.prefix());
            ps.setBytes(6, KeySecrets.hash(minted.secret()));
            ps.setString(7, info.createdAt().toString());
            ps.executeUpdate();
          }
          return null;
        });
    return minted;
  }

  @Override
  public List<ApiKeyInfo> list() {
    return db.read(
        "list API keys",
        c -> {
          List<ApiKeyInfo> out = new ArrayList<>();
          try (PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT id, tenant, role, label, prefix, created_at, revoked_at"
                          + " FROM "
                          + table
                          + " ORDER BY created_at, id");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              String revoked = rs.getString(7);
              out.add(
                  new ApiKeyInfo(
                      rs.getString(1),
                      rs.getString(2),
                      KeyRole.parse(rs.getString(3)),
                      rs.getString(4),
                      rs.getString(5),
                      Instant.parse(rs.getString(6)),
                      revoked == null ? Optional.empty() : Optional.of(Instant.parse(revoked))));
            }
          }
          return out;
        });
  }

  @Override
  public boolean revoke(String id) {
    Objects.requireNonNull(id, "id");
    String now = clock.instant().toString();
    return db.write(
        "revoke an API key",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE " + table + " SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
            ps.setString(1, now);
            ps.setString(2, id);
            return ps.executeUpdate() == 1;
          }
        });
  }

  @Override
  public Optional<Principal> authenticate(String presentedKey) {
    Optional<String> id = KeySecrets.idOf(presentedKey);
    if (id.isEmpty()) {
      return Optional.empty();
    }
    return db.read(
        "check an API key",
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT tenant, role, hash FROM "
                      + table
                      + " WHERE id = ? AND revoked_at IS NULL")) {
            ps.setString(1, id.get());
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next() || !KeySecrets.matches(presentedKey, rs.getBytes(3))) {
                return Optional.empty();
              }
              return Optional.of(
                  new Principal(id.get(), rs.getString(1), KeyRole.parse(rs.getString(2))));
            }
          }
        });
  }
}
