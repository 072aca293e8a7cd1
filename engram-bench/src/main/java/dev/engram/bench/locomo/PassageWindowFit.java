package dev.engram.bench.locomo;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.engram.Engram;
import dev.engram.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.text.Passage;
import dev.engram.text.Passages;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the passage limits ({@link Engram.Builder#passageTokens} and {@link
 * Engram.Builder#contextPassageTokens}, in cl100k tokens) fit the default embedder's window of 512
 * wordpieces: every turn of a LoCoMo-format file is split at each limit and each passage, as the
 * engine embeds it ({@code speaker: passage}), is tokenised by bge-small's own tokenizer without
 * truncation. Prints, per limit, the passages, how many exceed 512 wordpieces (whose end the
 * embedder does not read), the longest, and the wordpieces per cl100k token of passages over 50
 * tokens (median, p95, p99, maximum). {@code java -cp engram.jar
 * dev.engram.bench.locomo.PassageWindowFit FILE [LIMIT...]} (default limits 128 256 300 400: the
 * two defaults, then longer).
 */
public final class PassageWindowFit {
  private static final int WINDOW = 512;

  private PassageWindowFit() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: PassageWindowFit FILE [LIMIT...]");
      System.exit(2);
    }
    List<Turn> turns = new ArrayList<>();
    for (Conversation c : LocomoReader.read(Path.of(args[0]))) {
      for (Session s : c.sessions()) {
        turns.addAll(s.turns());
      }
    }
    List<Integer> limits = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      limits.add(Integer.parseInt(args[i]));
    }
    if (limits.isEmpty()) {
      limits =
          List.of(
              Engram.Builder.DEFAULT_PASSAGE_TOKENS,
              Engram.Builder.DEFAULT_CONTEXT_PASSAGE_TOKENS,
              300,
              400);
    }
    byte[] json;
    try (InputStream in =
        BgeSmallEnV15QuantizedEmbeddingModel.class
            .getClassLoader()
            .getResourceAsStream("bge-small-en-v1.5-q-tokenizer.json")) {
      if (in == null) {
        throw new IOException("bge-small's tokenizer is not on the class path");
      }
      json = in.readAllBytes();
    }
    TokenCounter cl100k = TokenCounter.cl100k();
    try (HuggingFaceTokenizer wordpieces =
        HuggingFaceTokenizer.newInstance(
            new ByteArrayInputStream(json),
            Map.of("padding", "false", "truncation", "false", "maxLength", "1000000"))) {
      System.out.println(
          "| limit (cl100k) | passages | over 512 wordpieces | longest | wordpieces per token p50 / p95"
              + " / p99 / max |");
      System.out.println("|---|---|---|---|---|");
      for (int limit : limits) {
        int passages = 0;
        int over = 0;
        int longest = 0;
        List<Double> ratios = new ArrayList<>();
        for (Turn turn : turns) {
          for (Passage p : Passages.split(turn.text(), limit, cl100k)) {
            passages++;
            String embedded = turn.speaker() + ": " + p.text();
            int pieces = wordpieces.encode(embedded, true, false).getIds().length;
            longest = Math.max(longest, pieces);
            if (pieces > WINDOW) {
              over++;
            }
            int tokens = cl100k.count(p.text());
            if (tokens > 50) {
              ratios.add(pieces / (double) tokens);
            }
          }
        }
        Collections.sort(ratios);
        System.out.printf(
            Locale.ROOT,
            "| %d | %d | %d | %d | %.2f / %.2f / %.2f / %.2f |%n",
            limit,
            passages,
            over,
            longest,
            at(ratios, 0.5),
            at(ratios, 0.95),
            at(ratios, 0.99),
            at(ratios, 1.0));
      }
    }
  }

  private static double at(List<Double> sorted, double q) {
    return sorted.isEmpty()
        ? 0
        : sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size())));
  }
}
