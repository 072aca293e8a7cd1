package dev.engram;

/** Tenant ids: the same rules as scope ids. */
public final class Tenants {
  /** The tenant of a library that does not use tenants. */
  public static final String DEFAULT = "default";

  private Tenants() {}

  /** Checks and trims a tenant id. */
  public static String check(String tenant) {
    if (tenant == null) {
      throw new ValidationException("tenant", "is required");
    }
    return Scope.normalize("tenant", tenant);
  }
}
