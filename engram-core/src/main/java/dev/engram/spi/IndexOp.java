package dev.engram.spi;

import java.util.Objects;

/** One change to a {@link SearchIndex}. */
public sealed interface IndexOp permits IndexOp.Upsert, IndexOp.Remove, IndexOp.RemoveTenant {

  /** Inserts or replaces a memory's document. */
  record Upsert(StoredMemory memory) implements IndexOp {
    public Upsert {
      Objects.requireNonNull(memory, "memory");
    }
  }

  /** Removes a memory's document, if present. */
  record Remove(String tenant, String id) implements IndexOp {
    public Remove {
      Objects.requireNonNull(tenant, "tenant");
      Objects.requireNonNull(id, "id");
    }
  }

  /** Removes every document of a tenant (after a reset). */
  record RemoveTenant(String tenant) implements IndexOp {
    public RemoveTenant {
      Objects.requireNonNull(tenant, "tenant");
    }
  }
}
