package dev.engram.testing;

import dev.engram.MemoryItem;
import dev.engram.StorageException;
import dev.engram.filter.FilterEvaluator;
import dev.engram.spi.CommonTerms;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.VectorMath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The reference {@link SearchIndex}: exact cosine over every document that passes the query
 * (tenant, scope, expiry and {@link FilterEvaluator}), and BM25 (k1 = 1.2, b = 0.75) over
 * lower-cased letter and digit runs, statistics over the whole index. Ties are broken by id.
 * Everything applied is durable at once.
 */
public final class InMemorySearchIndex implements SearchIndex {
  private static final double K1 = 1.2;
  private static final double B = 0.75;

  private final Map<String, StoredMemory> docs = new LinkedHashMap<>();
  private long generation = -1;
  private long seq;
  private boolean closed;

  @Override
  public synchronized IndexState state() {
    ensureOpen();
    return new IndexState(generation, seq, docs.size());
  }

  @Override
  public synchronized void apply(List<IndexOp> ops, long seq, long generation) {
    ensureOpen();
    for (IndexOp op : ops) {
      if (op instanceof IndexOp.Upsert u) {
        docs.put(key(u.memory().tenant(), u.memory().id()), u.memory());
      } else if (op instanceof IndexOp.Remove r) {
        docs.remove(key(r.tenant(), r.id()));
      } else if (op instanceof IndexOp.RemoveTenant t) {
        docs.values().removeIf(m -> m.tenant().equals(t.tenant()));
      }
    }
    this.seq = seq;
    this.generation = generation;
  }

  @Override
  public synchronized void clear(long generation) {
    ensureOpen();
    docs.clear();
    this.generation = generation;
    this.seq = 0;
  }

  @Override
  public synchronized void commit() {
    ensureOpen();
  }

  /**
   * Exact cosine over the field's embeddings; a memory without one (no context embedding) is never
   * found.
   */
  @Override
  public synchronized List<Candidate> dense(
      IndexQuery query, IndexField field, float[] vector, int k) {
    ensureOpen();
    List<Candidate> out = new ArrayList<>();
    for (StoredMemory m : docs.values()) {
      float[] embedding = field.embeddingView(m);
      if ((field == IndexField.TEXT || embedding.length > 0) && admits(query, m)) {
        out.add(new Candidate(m.id(), VectorMath.cosine(vector, embedding)));
      }
    }
    return top(out, k);
  }

  /** Both fields: the memories' own embeddings and their context embeddings. */
  @Override
  public Set<IndexField> denseFields() {
    return Set.of(IndexField.TEXT, IndexField.CONTEXT);
  }

  @Override
  public synchronized List<Candidate> keyword(
      IndexQuery query, IndexField field, String text, int k) {
    return bm25(query, text, k, field);
  }

  /** BM25 of {@code text} over one field of the memories (their text or their source context). */
  private List<Candidate> bm25(IndexQuery query, String text, int k, IndexField field) {
    ensureOpen();
    List<String> terms = tokens(text).stream().distinct().toList();
    if (terms.isEmpty() || docs.isEmpty()) {
      return List.of();
    }
    Map<String, Integer> docFreq = new HashMap<>();
    long totalLength = 0;
    Map<String, List<String>> tokenized = new HashMap<>();
    for (Map.Entry<String, StoredMemory> e : docs.entrySet()) {
      List<String> t = tokens(field.words(e.getValue()));
      tokenized.put(e.getKey(), t);
      totalLength += t.size();
      for (String term : t.stream().distinct().toList()) {
        docFreq.merge(term, 1, Integer::sum);
      }
    }
    double avgLength = Math.max(1e-9, (double) totalLength / docs.size());
    List<String> admitted =
        docs.keySet().stream().filter(key -> admits(query, docs.get(key))).toList();
    Map<String, Integer> admittedFrequencies = new LinkedHashMap<>();
    for (String term : terms) {
      admittedFrequencies.put(
          term, (int) admitted.stream().filter(key -> tokenized.get(key).contains(term)).count());
    }
    Optional<Set<String>> required = CommonTerms.required(admittedFrequencies, admitted.size());
    List<Candidate> out = new ArrayList<>();
    for (String key : admitted) {
      List<String> t = tokenized.get(key);
      if (required.isPresent() && required.get().stream().noneMatch(t::contains)) {
        continue; // only common terms match
      }
      double score = 0;
      for (String term : terms) {
        long tf = t.stream().filter(term::equals).count();
        if (tf > 0) {
          int n = docFreq.get(term);
          double idf = Math.log(1 + (docs.size() - n + 0.5) / (n + 0.5));
          score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * t.size() / avgLength));
        }
      }
      if (score > 0) {
        out.add(new Candidate(docs.get(key).id(), score));
      }
    }
    return top(out, k);
  }

  /** Lower-cased (root locale) runs of letters and digits. */
  static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    text.toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            cp -> {
              if (Character.isLetterOrDigit(cp)) {
                sb.appendCodePoint(cp);
              } else if (sb.length() > 0) {
                out.add(sb.toString());
                sb.setLength(0);
              }
            });
    if (sb.length() > 0) {
      out.add(sb.toString());
    }
    return out;
  }

  @Override
  public synchronized void close() {
    closed = true;
  }

  synchronized void reopen() {
    closed = false;
  }

  private static boolean admits(IndexQuery q, StoredMemory m) {
    MemoryItem item = m.item();
    return m.tenant().equals(q.tenant())
        && q.scope().contains(item.userId(), item.agentId(), item.runId())
        && (q.includeExpired() || !item.isExpired(q.today()))
        && FilterEvaluator.matches(q.filter(), item);
  }

  private static List<Candidate> top(List<Candidate> all, int k) {
    return all.stream()
        .sorted(
            Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Candidate::id))
        .limit(k)
        .toList();
  }

  private static String key(String tenant, String id) {
    return tenant + '\u0000' + id;
  }

  private void ensureOpen() {
    if (closed) {
      throw new StorageException("the in-memory index is closed");
    }
  }
}
