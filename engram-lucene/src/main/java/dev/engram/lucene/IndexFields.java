package dev.engram.lucene;

import dev.engram.filter.BuiltInField;
import dev.engram.filter.Field;

/**
 * Names of the Lucene fields of a memory document.
 *
 * <p>Fixed fields start with an underscore. A filterable value lives under a <em>logical name</em>:
 * a built-in field's wire name ({@code user_id}, {@code created_at}) or {@code meta.<key>} for a
 * metadata key, so metadata can never collide with built-ins. Each kind of value gets its own
 * Lucene field, named kind prefix + logical name:
 *
 * <ul>
 *   <li>{@code s|} strings as order-preserving terms ({@link StringCodec#term}): eq, in and ranges;
 *   <li>{@code v|} every string value as a binary doc value: contains, icontains, and the long
 *       values;
 *   <li>{@code o|} marks documents holding a string too long for a term (only those are in {@code
 *       v|} alone);
 *   <li>{@code n|} numbers as {@code DoublePoint}s; {@code b|} booleans as {@code "true"}/{@code
 *       "false"} terms;
 *   <li>{@code t|} times as 12-byte points ({@link TimePoints}), {@code d|} the same as
 *       epoch-millisecond doc values (for sorting);
 *   <li>{@code e|} presence: the value is there and not null (a list, even empty, or an object
 *       counts).
 * </ul>
 */
final class IndexFields {
  /** Unique key: tenant and id. */
  static final String KEY = "_key";

  /** The tenant, as a term. */
  static final String TENANT = "_tenant";

  /** The memory id, as a binary doc value. */
  static final String ID = "_id";

  /** The memory text, analysed for BM25. */
  static final String TEXT = "_text";

  /**
   * The memory's source context ({@link dev.engram.spi.StoredMemory#context}), analysed for BM25.
   */
  static final String CONTEXT = "_context";

  /** The embedding. */
  static final String VECTOR = "_vector";

  /**
   * The context embedding ({@link dev.engram.spi.StoredMemory#contextEmbedding}), when the memory
   * has one.
   */
  static final String CONTEXT_VECTOR = "_context_vector";

  /** The single term of presence and overflow marker fields. */
  static final String YES = "1";

  static final String STRING = "s|";
  static final String VALUES = "v|";
  static final String OVERFLOW = "o|";
  static final String NUMBER = "n|";
  static final String BOOLEAN = "b|";
  static final String TIME = "t|";
  static final String MILLIS = "d|";
  static final String EXISTS = "e|";

  private static final String META = "meta.";

  private IndexFields() {}

  /** The unique key of a memory: length-prefixed tenant, then id, so no two pairs share a key. */
  static String key(String tenant, String id) {
    return tenant.length() + ":" + tenant + id;
  }

  /** The logical name of a built-in field. */
  static String logical(BuiltInField f) {
    return f.wireName();
  }

  /** The logical name of a metadata key. */
  static String metadata(String key) {
    return META + key;
  }

  /** The logical name of a filter field. */
  static String logical(Field f) {
    return f.isMetadata() ? metadata(f.name()) : logical(f.builtIn());
  }
}
