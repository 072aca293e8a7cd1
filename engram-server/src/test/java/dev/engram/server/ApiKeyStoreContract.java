package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.server.auth.ApiKeyInfo;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.NewApiKey;
import dev.engram.server.auth.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ApiKeyStore} does: keys authenticate to their tenant and role until revoked,
 * only hashes are kept (a key with the right id and a wrong secret is refused), and two stores
 * opened on the same storage (two servers, or a server and {@code engram keys}) see each other's
 * creations and revocations at once. Subclasses open the store.
 */
public abstract class ApiKeyStoreContract {
  static final Instant T0 = Instant.parse("2026-05-06T07:08:09.123456789Z");

  private final List<ApiKeyStore> opened = new ArrayList<>();

  /**
   * Opens a store on this test's storage; a second call opens another store on the same storage.
   */
  protected abstract ApiKeyStore openKeys(Clock clock);

  private ApiKeyStore open(Clock clock) {
    ApiKeyStore s = openKeys(clock);
    opened.add(s);
    return s;
  }

  @AfterEach
  void closeStores() {
    opened.forEach(ApiKeyStore::close);
  }

  @Test
  void aKeyAuthenticatesToItsTenantAndRoleAndIsListedWithoutItsSecret() {
    MutableClock clock = new MutableClock(T0);
    ApiKeyStore keys = open(clock);
    NewApiKey admin = keys.create("acme", KeyRole.ADMIN, "  ops  ");
    clock.advance(Duration.ofSeconds(1));
    NewApiKey member = keys.create("globex", KeyRole.MEMBER, null);

    assertThat(keys.authenticate(admin.secret()))
        .contains(new Principal(admin.info().id(), "acme", KeyRole.ADMIN));
    assertThat(keys.authenticate(member.secret()))
        .contains(new Principal(member.info().id(), "globex", KeyRole.MEMBER));
    List<ApiKeyInfo> listed = keys.list();
    assertThat(listed).containsExactly(admin.info(), member.info());
    assertThat(listed.get(0).label()).isEqualTo("ops");
    assertThat(listed.get(0).createdAt()).isEqualTo(T0);
    assertThat(listed.get(1).label()).isEmpty();
    assertThat(listed.toString())
        .doesNotContain(admin.secret().substring(16))
        .doesNotContain(member.secret().substring(16));
  }

  @Test
  void wrongMalformedAndUnknownKeysAreRefused() {
    ApiKeyStore keys = open(Clock.systemUTC());
    NewApiKey k = keys.create("acme", KeyRole.MEMBER, "x");
    String secret = k.secret();
    char last = secret.charAt(secret.length() - 1);
    String sameIdOtherSecret = secret.substring(0, secret.length() - 1) + (last == 'A' ? 'B' : 'A');
    assertThat(keys.authenticate(sameIdOtherSecret)).isEmpty();
    assertThat(keys.authenticate(secret.substring(1))).isEmpty();
    assertThat(keys.authenticate("eng_000000000000_" + secret.substring(17))).isEmpty();
    assertThat(keys.authenticate("")).isEmpty();
    assertThatThrownBy(() -> keys.create(" ", KeyRole.MEMBER, "x"))
        .isInstanceOf(ValidationException.class);
    assertThat(keys.list()).hasSize(1);
  }

  @Test
  void aRevokedKeyIsRefusedAndRevokingTwiceOrAnUnknownIdIsFalse() {
    MutableClock clock = new MutableClock(T0);
    ApiKeyStore keys = open(clock);
    NewApiKey k = keys.create("acme", KeyRole.MEMBER, "x");
    NewApiKey other = keys.create("acme", KeyRole.MEMBER, "y");
    clock.advance(Duration.ofMinutes(5));
    assertThat(keys.revoke(k.info().id())).isTrue();
    assertThat(keys.authenticate(k.secret())).isEmpty();
    assertThat(keys.authenticate(other.secret())).isPresent();
    assertThat(keys.revoke(k.info().id())).isFalse();
    assertThat(keys.revoke("000000000000")).isFalse();
    ApiKeyInfo revoked =
        keys.list().stream().filter(i -> i.id().equals(k.info().id())).findFirst().orElseThrow();
    assertThat(revoked.revokedAt()).contains(T0.plus(Duration.ofMinutes(5)));
    assertThat(revoked.active()).isFalse();
  }

  @Test
  void twoStoresOnTheSameStorageSeeEachOthersKeysAndRevocationsAtOnce() {
    ApiKeyStore first = open(Clock.systemUTC());
    ApiKeyStore second = open(Clock.systemUTC());
    NewApiKey made = first.create("acme", KeyRole.ADMIN, "made on the first");
    assertThat(second.authenticate(made.secret())).map(Principal::tenant).contains("acme");
    assertThat(second.list()).extracting(ApiKeyInfo::id).containsExactly(made.info().id());
    assertThat(second.revoke(made.info().id())).isTrue();
    assertThat(first.authenticate(made.secret())).isEmpty();
  }
}
