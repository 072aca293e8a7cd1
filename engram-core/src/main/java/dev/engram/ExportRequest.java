package dev.engram;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Memory#exportRecords} reads: the whole tenant, or one scope of it. Immutable.
 *
 * <p>A tenant export holds every memory that has history in the tenant, deleted ones included
 * (their records carry only the history). A scope export holds the scope's memories that exist now,
 * by the containment rule of {@link Scope} (expired ones included); deleted memories are left out,
 * because their history does not record their scope.
 *
 * @param scope the scope to export, or empty for the whole tenant
 * @param pageSize how many memories are read from the store at a time (1 to {@value
 *     #MAX_PAGE_SIZE}; default {@value #DEFAULT_PAGE_SIZE})
 */
public record ExportRequest(Optional<Scope> scope, int pageSize) {
  /** The default page size. */
  public static final int DEFAULT_PAGE_SIZE = 500;

  /** The largest page size. */
  public static final int MAX_PAGE_SIZE = 10_000;

  /**
   * @throws ValidationException if the page size is out of range
   */
  public ExportRequest {
    Objects.requireNonNull(scope, "scope");
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new ValidationException(
          "page_size", "must be between 1 and " + MAX_PAGE_SIZE + ", got " + pageSize);
    }
  }

  /** The whole tenant, deleted memories' history included. */
  public static ExportRequest wholeTenant() {
    return new ExportRequest(Optional.empty(), DEFAULT_PAGE_SIZE);
  }

  /** One scope's memories. */
  public static ExportRequest of(Scope scope) {
    return new ExportRequest(
        Optional.of(Objects.requireNonNull(scope, "scope")), DEFAULT_PAGE_SIZE);
  }

  /** The whole tenant if {@code scope} is empty, else that scope. */
  public static ExportRequest of(Optional<Scope> scope) {
    return new ExportRequest(scope, DEFAULT_PAGE_SIZE);
  }

  /** This request with another page size. */
  public ExportRequest withPageSize(int size) {
    return new ExportRequest(scope, size);
  }
}
