package dev.engram.bench.locomo;

import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.RagBaseline.Chunk;
import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Measures the RAG and full-context baselines of one conversation into a report. */
final class Baselines {
  private Baselines() {}

  static void measure(
      Conversation c, Embedder embedder, LocomoBench.Hooks hooks, ReportBuilder report) {
    measure(c, embedder, RagBaseline.CHUNK_TOKENS, hooks, report);
  }

  /** Measures RAG with the given chunk sizes (and {@link RagBaseline#KS}), then full context. */
  static void measure(
      Conversation c,
      Embedder embedder,
      List<Integer> chunkSizes,
      LocomoBench.Hooks hooks,
      ReportBuilder report) {
    List<Question> questions = c.questions().stream().filter(LocomoBench::scored).toList();
    List<float[]> queries = questions.stream().map(q -> embedder.embedQuery(q.question())).toList();
    for (int size : chunkSizes) {
      RagBaseline rag = RagBaseline.index(c, size, embedder);
      hooks.progress().accept(c.turnCount());
      for (int k : RagBaseline.KS) {
        String name = RagBaseline.name(size, k);
        for (int i = 0; i < questions.size(); i++) {
          Question q = questions.get(i);
          List<Chunk> top = rag.top(queries.get(i), k);
          List<String> texts = top.stream().map(Chunk::text).toList();
          Set<String> sources = new LinkedHashSet<>();
          top.forEach(ch -> sources.addAll(ch.diaIds()));
          report.baseline(
              name,
              q,
              LocomoReport.QuestionScore.of(q, texts, sources),
              hooks.observer().onBaseline(name, c, q, texts));
        }
      }
    }
    List<String> full = List.of(RagBaseline.fullText(c));
    Set<String> all = new LinkedHashSet<>(RagBaseline.diaIds(c));
    for (Question q : questions) {
      report.baseline(
          RagBaseline.FULL_CONTEXT,
          q,
          LocomoReport.QuestionScore.of(q, full, all),
          hooks.observer().onBaseline(RagBaseline.FULL_CONTEXT, c, q, new ArrayList<>(full)));
    }
  }
}
