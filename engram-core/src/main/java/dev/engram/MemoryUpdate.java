package dev.engram;

import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;

/**
 * A change to one memory: new text, new metadata (replacing the old), and/or a new expiration date.
 * At least one part must be set. Immutable; build with the static factories and {@code with*}
 * methods.
 */
public final class MemoryUpdate {
  private final String text;
  private final Map<String, Object> metadata;
  private final boolean expirationSet;
  private final LocalDate expiration;

  private MemoryUpdate(
      String text, Map<String, Object> metadata, boolean expirationSet, LocalDate expiration) {
    this.text = text;
    this.metadata = metadata == null ? null : JsonValues.immutableObject(metadata);
    this.expirationSet = expirationSet;
    this.expiration = expiration;
  }

  public static MemoryUpdate text(String newText) {
    return new MemoryUpdate(newText, null, false, null);
  }

  public static MemoryUpdate metadata(Map<String, ?> newMetadata) {
    return new MemoryUpdate(null, JsonValues.immutableObject(newMetadata), false, null);
  }

  /** Sets (or with null clears) the expiration date. */
  public static MemoryUpdate expiration(LocalDate date) {
    return new MemoryUpdate(null, null, true, date);
  }

  public MemoryUpdate withText(String newText) {
    return new MemoryUpdate(newText, metadata, expirationSet, expiration);
  }

  public MemoryUpdate withMetadata(Map<String, ?> newMetadata) {
    return new MemoryUpdate(
        text, JsonValues.immutableObject(newMetadata), expirationSet, expiration);
  }

  public MemoryUpdate withExpiration(LocalDate date) {
    return new MemoryUpdate(text, metadata, true, date);
  }

  public Optional<String> newText() {
    return Optional.ofNullable(text);
  }

  public Optional<Map<String, Object>> newMetadata() {
    return Optional.ofNullable(metadata);
  }

  /** Empty if the expiration is unchanged; else the new date, which may be absent (cleared). */
  public Optional<Optional<LocalDate>> newExpiration() {
    return expirationSet ? Optional.of(Optional.ofNullable(expiration)) : Optional.empty();
  }
}
