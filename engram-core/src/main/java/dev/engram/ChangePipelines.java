package dev.engram;

import java.util.regex.Pattern;

/**
 * The names a {@link HistoryEntry#pipeline()} carries: which path through the engine made a change.
 * Every history row names one; the console, the REST history routes and the export format show it
 * as {@code pipeline}.
 *
 * <ul>
 *   <li>An {@code infer=true} add names its {@link dev.engram.spi.MemoryInference} ({@link
 *       dev.engram.spi.MemoryInference#pipelineName()}): {@value #OFFLINE}, {@value #CONSOLIDATE},
 *       {@value #ADDITIVE}, {@value #VERBATIM}, or {@value #INFER} for an inference that does not
 *       name itself.
 *   <li>{@value #RAW}: an {@code infer=false} add, the message stored as it was said.
 *   <li>{@value #UPDATE}: {@code Memory.update}, a direct edit through the API (not a model's
 *       UPDATE).
 *   <li>{@value #DELETE}: {@code Memory.delete} of one memory through the API.
 *   <li>{@value #DELETE_ALL}: {@code Memory.deleteAll}, the bulk delete of a scope.
 *   <li>{@value #EXPIRY}: {@code Memory.purgeExpired}, a memory removed because its expiration date
 *       had passed.
 *   <li>{@value #IMPORT}: the ADD row made up for an item of a mem0 export, which carries no
 *       history. An import of Engram's own export keeps each row's pipeline as it was.
 *   <li>{@value #UNKNOWN}: a row written before history recorded its pipeline (an older database or
 *       export).
 * </ul>
 *
 * <p>A name is 1 to 40 characters: a lower-case letter, then lower-case letters, digits, {@code _},
 * {@code .} or {@code -}.
 */
public final class ChangePipelines {
  /** An {@code infer=false} add: stored verbatim. */
  public static final String RAW = "raw";

  /** The offline extractor ({@code pipeline.mode: offline}, no language model). */
  public static final String OFFLINE = "offline";

  /** The paper's two-step extraction and consolidation ({@code pipeline.mode: consolidate}). */
  public static final String CONSOLIDATE = "consolidate";

  /** mem0's current add-only extraction ({@code pipeline.mode: additive}). */
  public static final String ADDITIVE = "additive";

  /** The verbatim inference: {@code infer=true}, every message stored as said. */
  public static final String VERBATIM = "verbatim";

  /** An {@code infer=true} add through an inference that does not name itself. */
  public static final String INFER = "infer";

  /** A direct edit through {@code Memory.update}. */
  public static final String UPDATE = "update";

  /** A delete of one memory through {@code Memory.delete}. */
  public static final String DELETE = "delete";

  /** The bulk delete of a scope, {@code Memory.deleteAll}. */
  public static final String DELETE_ALL = "delete_all";

  /** A delete by {@code Memory.purgeExpired}. */
  public static final String EXPIRY = "expiry";

  /** The ADD row of an item imported from a mem0 export. */
  public static final String IMPORT = "import";

  /** A row written before history recorded its pipeline. */
  public static final String UNKNOWN = "unknown";

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.-]{0,39}");

  private ChangePipelines() {}

  /** Whether {@code name} is a well-formed pipeline name. */
  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /**
   * Returns {@code name} if it is a well-formed pipeline name.
   *
   * @param field names the value in the error
   * @throws ValidationException naming {@code field} otherwise
   */
  public static String check(String field, String name) {
    if (!isValid(name)) {
      throw new ValidationException(
          field,
          "must be a pipeline name (a lower-case letter, then up to 39 lower-case"
              + " letters, digits, '_', '.' or '-'), got "
              + (name == null ? "null" : "'" + name + "'"));
    }
    return name;
  }
}
