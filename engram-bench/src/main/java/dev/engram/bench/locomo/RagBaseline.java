package dev.engram.bench.locomo;

import dev.engram.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The baselines of the Mem0 paper, measured with Engram's tokenizer and metrics: RAG over the raw
 * conversation in fixed-token chunks, and the full conversation as context.
 *
 * <p>A conversation is rendered as one line per turn, {@code <speaker>: <text>}, in session and
 * turn order, lines joined by a newline (no dates: Engram's context tokens count memory texts only,
 * so both sides are counted alike). Chunks are built greedily from consecutive lines, across
 * session boundaries as the paper's harness did: a line joins the current chunk while the chunk's
 * text stays within the size in cl100k tokens, else it starts a new chunk. A single line longer
 * than the size is a chunk of its own (never split), so that every chunk holds whole turns and
 * knows their dia_ids. Chunks are retrieved by the cosine of the same embedder's vectors (brute
 * force, in memory): the query embedded with {@link Embedder#embedQuery}, chunks with {@link
 * Embedder#embedDocuments}; ties go to the earlier chunk.
 */
public final class RagBaseline {
  /** The chunk sizes of the paper, in tokens. */
  public static final List<Integer> CHUNK_TOKENS = List.of(128, 256, 512, 1024, 2048, 4096, 8192);

  /** The numbers of chunks retrieved per question in the paper. */
  public static final List<Integer> KS = List.of(1, 2);

  /** The name of the full-context baseline. */
  public static final String FULL_CONTEXT = "full-context";

  private static final int EMBED_BATCH = 32;

  /**
   * A run of consecutive turns.
   *
   * @param text the lines of the turns joined by newlines
   * @param diaIds the dia_ids of the turns, in order
   * @param tokens the cl100k token count of {@code text}
   */
  public record Chunk(String text, List<String> diaIds, int tokens) {
    public Chunk {
      Objects.requireNonNull(text, "text");
      diaIds = List.copyOf(diaIds);
    }
  }

  private final List<Chunk> chunks;
  private final List<float[]> vectors;

  private RagBaseline(List<Chunk> chunks, List<float[]> vectors) {
    this.chunks = chunks;
    this.vectors = vectors;
  }

  /** The name of a RAG baseline, for example {@code rag-512-k2}. */
  public static String name(int chunkTokens, int k) {
    return "rag-" + chunkTokens + "-k" + k;
  }

  /** One turn as a line: {@code <speaker>: <text>}. */
  public static String line(Turn t) {
    return t.speaker() + ": " + t.text();
  }

  /** The whole conversation, one line per turn: the full-context baseline's context. */
  public static String fullText(Conversation c) {
    List<String> lines = new ArrayList<>();
    for (Session s : c.sessions()) {
      s.turns().forEach(t -> lines.add(line(t)));
    }
    return String.join("\n", lines);
  }

  /** Every dia_id of a conversation, in order. */
  public static List<String> diaIds(Conversation c) {
    List<String> ids = new ArrayList<>();
    c.sessions().forEach(s -> s.turns().forEach(t -> ids.add(t.diaId())));
    return ids;
  }

  /**
   * Cuts a conversation into chunks of at most {@code maxTokens} tokens (see the class comment).
   */
  public static List<Chunk> chunks(Conversation c, int maxTokens) {
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be positive, got " + maxTokens);
    }
    List<Chunk> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    List<String> ids = new ArrayList<>();
    int tokens = 0;
    for (Session s : c.sessions()) {
      for (Turn t : s.turns()) {
        String line = line(t);
        if (ids.isEmpty()) {
          text.append(line);
          ids.add(t.diaId());
          tokens = TokenCounter.cl100k().count(line);
          continue;
        }
        String candidate = text + "\n" + line;
        int candidateTokens = TokenCounter.cl100k().count(candidate);
        if (candidateTokens <= maxTokens) {
          text.setLength(0);
          text.append(candidate);
          ids.add(t.diaId());
          tokens = candidateTokens;
        } else {
          out.add(new Chunk(text.toString(), ids, tokens));
          text.setLength(0);
          text.append(line);
          ids = new ArrayList<>(List.of(t.diaId()));
          tokens = TokenCounter.cl100k().count(line);
        }
      }
    }
    if (!ids.isEmpty()) {
      out.add(new Chunk(text.toString(), ids, tokens));
    }
    return out;
  }

  /** Chunks a conversation and embeds the chunks. */
  public static RagBaseline index(Conversation c, int maxTokens, Embedder embedder) {
    List<Chunk> chunks = chunks(c, maxTokens);
    List<float[]> vectors = new ArrayList<>(chunks.size());
    for (int from = 0; from < chunks.size(); from += EMBED_BATCH) {
      List<String> texts =
          chunks.subList(from, Math.min(chunks.size(), from + EMBED_BATCH)).stream()
              .map(Chunk::text)
              .toList();
      vectors.addAll(embedder.embedDocuments(texts));
    }
    return new RagBaseline(chunks, vectors);
  }

  /** The chunks, in conversation order. */
  public List<Chunk> chunks() {
    return chunks;
  }

  /**
   * The {@code k} chunks most similar to an embedded query, best first; ties go to the earlier
   * chunk.
   */
  public List<Chunk> top(float[] query, int k) {
    List<Integer> order = new ArrayList<>();
    double[] scores = new double[chunks.size()];
    for (int i = 0; i < chunks.size(); i++) {
      scores[i] = dot(query, vectors.get(i));
      order.add(i);
    }
    order.sort(
        (a, b) ->
            scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
    return order.subList(0, Math.min(k, order.size())).stream().map(chunks::get).toList();
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}
