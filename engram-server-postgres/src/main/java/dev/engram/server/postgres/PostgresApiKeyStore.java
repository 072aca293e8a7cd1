package dev.engram.server.postgres;

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
import javax.sql.DataSource;

/**
 * API keys in PostgreSQL ({@code server_api_keys}): the key's SHA-256 hash, never the key. Every check reads the
 * table (no cache), so a key created or revoked through any server or {@code engram keys} holds on every server from
 * its next request. Does not own the pool.
 */
public final class PostgresApiKeyStore implements ApiKeyStore {
  private final Transactions db;
  private final Clock clock;

  /**
   * @param pool  connections to the migrated schema ({@link dev.engram.postgres.PostgresPools})
   * @param clock the clock for creation and revocation times
   */
  public PostgresApiKeyStore(DataSource pool, Clock clock) {
    this.db = new Transactions(Objects.requireNonNull(pool, "pool"));
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public NewApiKey create(String tenant, KeyRole role, String label) {
    NewApiKey minted = NewApiKey.mint(tenant, role, label, clock.instant());
    ApiKeyInfo info = minted.info();
    db.run("create an API key", c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO server_api_keys (id, tenant, role, label, prefix,"
          + " hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
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
    return db.run("list API keys", c -> {
      List<ApiKeyInfo> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT id, tenant, role, label, prefix, created_at, revoked_at"
          + " FROM server_api_keys ORDER BY created_at, id"); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String revoked = rs.getString(7);
          out.add(new ApiKeyInfo(rs.getString(1), rs.getString(2), KeyRole.parse(rs.getString(3)), rs.getString(4),
              rs.getString(5), Instant.parse(rs.getString(6)),
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
    return db.run("revoke an API key", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "UPDATE server_api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
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
    return db.run("check an API key", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT tenant, role, hash FROM server_api_keys WHERE id = ? AND revoked_at IS NULL")) {
        ps.setString(1, id.get());
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next() || !KeySecrets.matches(presentedKey, rs.getBytes(3))) {
            return Optional.empty();
          }
          return Optional.of(new Principal(id.get(), rs.getString(1), KeyRole.parse(rs.getString(2))));
        }
      }
    });
  }

  /** Nothing to close: the pool belongs to the caller. */
  @Override
  public void close() {}
}
