package dev.engram.filter;

/** Fields every memory has, and the kind of values they hold. */
public enum BuiltInField {
  USER_ID("user_id", Kind.STRING),
  AGENT_ID("agent_id", Kind.STRING),
  RUN_ID("run_id", Kind.STRING),
  ACTOR_ID("actor_id", Kind.STRING),
  ROLE("role", Kind.STRING),
  HASH("hash", Kind.STRING),
  MEMORY("memory", Kind.STRING),
  SOURCE_ID("source_id", Kind.STRING),
  CREATED_AT("created_at", Kind.TIME),
  UPDATED_AT("updated_at", Kind.TIME),
  EVENT_TIME("event_time", Kind.TIME),
  EXPIRATION_DATE("expiration_date", Kind.TIME);

  /** The kind of value a field holds. */
  public enum Kind {
    /** Text; compared as strings. */
    STRING,
    /**
     * A point in time; filter values are ISO-8601 dates or date-times (UTC if no offset) or epoch
     * milliseconds.
     */
    TIME
  }

  private final String wireName;
  private final Kind kind;

  BuiltInField(String wireName, Kind kind) {
    this.wireName = wireName;
    this.kind = kind;
  }

  public String wireName() {
    return wireName;
  }

  public Kind kind() {
    return kind;
  }

  /** The built-in field with this wire name, or null. */
  public static BuiltInField byName(String name) {
    for (BuiltInField f : values()) {
      if (f.wireName.equals(name)) {
        return f;
      }
    }
    return null;
  }
}
