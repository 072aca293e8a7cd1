package dev.engram.sqlite;

/**
 * How hard a {@link SqliteMemoryStore} works to keep a commit once {@code apply} has returned. The
 * store always runs SQLite in WAL mode; this choice maps to {@code PRAGMA synchronous}.
 */
public enum Durability {
  /**
   * {@code synchronous=NORMAL}: a commit is appended to the write-ahead log without an fsync. It
   * survives a crash or {@code kill -9} of the process (the log is in the operating system's page
   * cache), but the last commits may be lost if the machine loses power or the operating system
   * crashes. The database is never corrupted either way. The default: fast, and enough for an
   * embedded library.
   */
  NORMAL("NORMAL"),

  /**
   * {@code synchronous=FULL}: every commit fsyncs the write-ahead log before {@code apply} returns,
   * so it also survives power loss and operating-system crashes, at the cost of one fsync per
   * commit.
   */
  FULL("FULL");

  private final String pragmaValue;

  Durability(String pragmaValue) {
    this.pragmaValue = pragmaValue;
  }

  /** The value of {@code PRAGMA synchronous} this level sets. */
  public String pragmaValue() {
    return pragmaValue;
  }
}
