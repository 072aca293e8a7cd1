/**
 * <b>Internal.</b> The index that {@code EmbeddedStorage} builds on; applications do not open it
 * directly.
 *
 * <p>Engram's derived search index on Apache Lucene 9.12: {@link
 * dev.engram.lucene.LuceneSearchIndex}, an implementation of {@link dev.engram.spi.SearchIndex}.
 *
 * <p><b>Documents.</b> One per memory, keyed by tenant and id: the embedding as an HNSW vector
 * compared by dot product (embeddings arrive L2-normalised, so the dot product is the cosine), the
 * text analysed by Lucene's {@code EnglishAnalyzer} for BM25 (stop words removed, Porter-stemmed:
 * conversational memories are mostly English, and stemming lets "hikes" find "hiking"), and every
 * built-in field and metadata key as filter fields.
 *
 * <p><b>Filters agree exactly with {@link dev.engram.filter.FilterEvaluator}</b>, which a
 * randomised test checks:
 *
 * <ul>
 *   <li>strings, numbers, booleans and times each have their own fields, so values only ever
 *       compare with values of their kind; a list value indexes each scalar element, so "any
 *       element matches" holds;
 *   <li>string terms use an encoding whose byte order is Java's {@code String.compareTo} order
 *       (UTF-16 code units, not code points), so ranges agree even for emoji next to U+E000..U+FFFF
 *       characters;
 *   <li>{@code contains} and {@code icontains} test the actual values (kept in doc values) with
 *       {@code String.contains} after {@code toLowerCase(Locale.ROOT)}, evaluated only on documents
 *       the tenant and scope already admit;
 *   <li>string values too long for a Lucene term (32,766 UTF-8 bytes; a memory text of up to 1 MiB
 *       characters can exceed it) are not truncated: they are kept in doc values and tested one by
 *       one, so every operator stays exact;
 *   <li>times are indexed at nanosecond precision, since stored instants carry sub-millisecond
 *       digits;
 *   <li>{@code ne}, {@code nin} and {@code NOT} match everything but the positive condition: a
 *       missing field passes;
 *   <li>metadata objects are not flattened and not filterable inside: a key holding an object is
 *       present (for {@code exists}, and passes {@code ne}), and compares with nothing, exactly as
 *       in the evaluator, where {@code metadata.a.b} names the top-level key {@code "a.b"}.
 * </ul>
 */
package dev.engram.lucene;
