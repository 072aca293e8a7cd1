package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.server.auth.CachedApiKeyStore;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.NewApiKey;
import dev.engram.server.auth.Principal;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteApiKeyStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's cache of authenticated keys ({@link CachedApiKeyStore}, {@code
 * server.key_cache_seconds}): a key revoked through the cache is refused at once; one revoked
 * elsewhere (the CLI, another server) is trusted until its entry's time is up and refused after, on
 * the injected ticker; a failed key is never remembered, so a key created elsewhere works at once;
 * zero turns the cache off. Then the same through a running server.
 */
class KeyCacheTest {
  private static final Instant T0 = Instant.parse("2026-05-06T07:08:09Z");
  private static final Duration TTL = Duration.ofSeconds(2);

  @TempDir Path dir;

  @Test
  void aKeyRevokedElsewhereIsRefusedOnceItsEntryIsUpAndOneRevokedThroughTheCacheAtOnce() {
    AtomicLong nanos = new AtomicLong();
    try (ServerDatabase db = ServerDatabase.open(dir);
        SqliteApiKeyStore store = new SqliteApiKeyStore(db, Clock.systemUTC(), false)) {
      CachedApiKeyStore cache = new CachedApiKeyStore(store, nanos::get, TTL);
      NewApiKey elsewhere = store.create("acme", KeyRole.MEMBER, "revoked by the CLI");
      NewApiKey here = store.create("acme", KeyRole.ADMIN, "revoked by the server");
      assertThat(cache.authenticate(elsewhere.secret()))
          .contains(new Principal(elsewhere.info().id(), "acme", KeyRole.MEMBER));
      assertThat(cache.authenticate(here.secret())).isPresent();

      assertThat(store.revoke(elsewhere.info().id())).isTrue();
      nanos.addAndGet(TTL.minusMillis(1).toNanos());
      assertThat(cache.authenticate(elsewhere.secret()))
          .as("trusted until its entry is up")
          .isPresent();
      nanos.addAndGet(Duration.ofMillis(1).toNanos());
      assertThat(cache.authenticate(elsewhere.secret())).as("refused once it is up").isEmpty();
      nanos.addAndGet(TTL.toNanos());
      assertThat(cache.authenticate(elsewhere.secret())).as("and after").isEmpty();

      assertThat(cache.authenticate(here.secret())).isPresent();
      assertThat(cache.revoke(here.info().id())).isTrue();
      assertThat(cache.authenticate(here.secret()))
          .as("revoked through the cache: at once")
          .isEmpty();
      assertThat(cache.revoke(here.info().id())).isFalse();
    }
  }

  @Test
  void failuresAreNotRememberedAndAWrongSecretNeverMatchesACachedKey() {
    AtomicLong nanos = new AtomicLong();
    try (ServerDatabase db = ServerDatabase.open(dir);
        SqliteApiKeyStore store = new SqliteApiKeyStore(db, Clock.systemUTC(), false)) {
      CachedApiKeyStore cache = new CachedApiKeyStore(store, nanos::get, TTL);
      NewApiKey k = store.create("acme", KeyRole.MEMBER, "k");
      assertThat(cache.authenticate(k.secret())).isPresent();
      String sameIdOtherSecret =
          k.secret().substring(0, 17)
              + (k.secret().charAt(17) == 'A' ? 'B' : 'A')
              + k.secret().substring(18);
      assertThat(cache.authenticate(sameIdOtherSecret)).isEmpty();
      assertThat(cache.authenticate("eng_000000000000_" + "A".repeat(32))).isEmpty();
      assertThat(cache.authenticate("not a key")).isEmpty();
      assertThat(cache.authenticate(k.secret())).isPresent();
    }
  }

  @Test
  void zeroAsksTheStoreEveryTime() {
    AtomicLong nanos = new AtomicLong();
    try (ServerDatabase db = ServerDatabase.open(dir);
        SqliteApiKeyStore store = new SqliteApiKeyStore(db, Clock.systemUTC(), false)) {
      CachedApiKeyStore cache = new CachedApiKeyStore(store, nanos::get, Duration.ZERO);
      NewApiKey k = store.create("acme", KeyRole.MEMBER, "k");
      assertThat(cache.authenticate(k.secret())).isPresent();
      store.revoke(k.info().id());
      assertThat(cache.authenticate(k.secret())).isEqualTo(Optional.empty());
    }
  }

  @Test
  void theSettingIsBounded() {
    assertThatThrownBy(() -> ServerSettings.builder().keyCacheTtl(Duration.ofSeconds(61)).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("key_cache_seconds");
    assertThatThrownBy(() -> ServerSettings.builder().keyCacheTtl(Duration.ofSeconds(-1)).build())
        .isInstanceOf(ValidationException.class);
    assertThat(ServerSettings.builder().build().keyCacheTtl())
        .isEqualTo(ServerSettings.DEFAULT_KEY_CACHE_TTL);
  }

  @Test
  void aRunningServerRefusesAKeyRevokedFromAnotherProcessWithinTheCacheTime() {
    AtomicLong nanos = new AtomicLong();
    ServerFixture f =
        new ServerFixture(
            dir.resolve(UUID.randomUUID().toString()),
            ServerSettings.builder().port(0).keyCacheTtl(TTL).build(),
            new MutableClock(T0),
            nanos::get,
            UnaryOperator.identity());
    try {
      NewApiKey member = f.key("acme", KeyRole.MEMBER);
      assertThat(f.call("GET", "/v1/ping/", member.secret(), null).status()).isEqualTo(200);
      // engram keys revoke, run while the server serves: the server's store sees it, its cache does
      // not yet.
      assertThat(f.keys.revoke(member.info().id())).isTrue();
      assertThat(f.call("GET", "/v1/ping/", member.secret(), null).status()).isEqualTo(200);
      nanos.addAndGet(TTL.toNanos());
      assertThat(f.call("GET", "/v1/ping/", member.secret(), null).status()).isEqualTo(401);
      NewApiKey fresh = f.key("acme", KeyRole.MEMBER);
      assertThat(f.call("GET", "/v1/ping/", fresh.secret(), null).status())
          .as("a new key works at once")
          .isEqualTo(200);
    } finally {
      f.close();
    }
  }
}
