package dev.engram;

import java.time.Instant;
import java.util.Objects;

/**
 * One user, agent or run id of a tenant that owns memories, with how many (mem0's "entities").
 *
 * @param type which kind of id
 * @param id the id
 * @param memories how many memories carry this id (an id shared by user and run rows is counted
 *     under each type)
 * @param createdAt when the oldest of them was stored
 * @param updatedAt when the newest change to them happened
 */
public record EntitySummary(
    EntityType type, String id, long memories, Instant createdAt, Instant updatedAt) {
  public EntitySummary {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** The scope that holds exactly this id. */
  public Scope scope() {
    return type.scope(id);
  }

  /** The kinds of scope id. */
  public enum EntityType {
    USER("user"),
    AGENT("agent"),
    RUN("run");

    private final String wireName;

    EntityType(String wireName) {
      this.wireName = wireName;
    }

    /** The scope made of one id of this kind. */
    public Scope scope(String id) {
      return switch (this) {
        case USER -> Scope.user(id);
        case AGENT -> Scope.agent(id);
        case RUN -> Scope.run(id);
      };
    }

    /** The lower-case name used on the wire ({@code user}, {@code agent}, {@code run}). */
    public String wireName() {
      return wireName;
    }

    /** Parses a wire name. */
    public static EntityType parse(String field, String name) {
      for (EntityType t : values()) {
        if (t.wireName.equals(name)) {
          return t;
        }
      }
      throw new ValidationException(field, "must be user, agent or run, got '" + name + "'");
    }
  }
}
