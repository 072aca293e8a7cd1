package dev.engram.server.auth;

import dev.engram.Tenants;
import java.util.Objects;

/**
 * Who made a request: the API key's id, the tenant it belongs to and its role. The tenant comes
 * only from the key, never from anything the client sends.
 */
public record Principal(String keyId, String tenant, KeyRole role) {
  public Principal {
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(role, "role");
    tenant = Tenants.check(tenant);
  }
}
