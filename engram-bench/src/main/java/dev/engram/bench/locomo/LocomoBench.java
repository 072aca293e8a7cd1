package dev.engram.bench.locomo;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.bench.Percentiles;
import dev.engram.bench.RetrievalMetrics;
import dev.engram.bench.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * Runs the LoCoMo retrieval benchmark without an LLM: ingests each conversation into a fresh embedded data
 * directory (one scope per conversation, speakers as actors), then asks every question of categories 1 to 4 and
 * scores what search returns against the gold evidence.
 */
public final class LocomoBench {

  /** What is stored per conversation. */
  public enum Mode {
    /** Every turn verbatim, one add per turn (infer=false). */
    RAW,
    /** LoCoMo's observations replayed as extracted facts, one add per session. */
    OBSERVATIONS
  }

  /**
   * Settings of one run.
   *
   * @param data          a LoCoMo-format file
   * @param mode          what to store
   * @param topK          results per question
   * @param fusion        how dense and keyword hits are fused
   * @param conversations how many conversations to use (0 for all)
   * @param workDir       where the temporary data directories go
   */
  public record Options(Path data, Mode mode, int topK, Fusion fusion, int conversations, Path workDir) {
    public Options {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(fusion, "fusion");
      Objects.requireNonNull(workDir, "workDir");
    }
  }

  private LocomoBench() {}

  /** Runs the benchmark; {@code progress} receives the number of turns ingested so far. */
  public static LocomoReport run(Options o, Embedder embedder, IntConsumer progress) {
    List<Conversation> all = LocomoReader.read(o.data());
    List<Conversation> convs = o.conversations() > 0 ? all.subList(0, Math.min(o.conversations(), all.size())) : all;
    LocomoReport.Builder report = new LocomoReport.Builder(o.data().getFileName().toString(),
        o.mode().name().toLowerCase(), o.topK(), embedder.modelId(), o.fusion().name());
    int[] turnsDone = {0};
    for (Conversation c : convs) {
      Path dir = o.workDir().resolve("locomo-" + c.sampleId() + "-" + System.nanoTime());
      try (Memory memory = Engram.builder()
          .storage(EmbeddedStorage.open(dir, embedder.dimension()))
          .embedder(embedder)
          .fusion(o.fusion())
          .inference(new ObservationReplay(c.observations()))
          .build()) {
        Scope scope = Scope.user(c.sampleId());
        long start = System.nanoTime();
        ingest(memory, scope, c, o.mode(), n -> progress.accept(turnsDone[0] += n));
        report.ingest(c.turnCount(), System.nanoTime() - start);
        report.memoryTokens(memoryTokens(memory, scope));
        warmUp(memory, scope, c);
        for (Question q : c.questions()) {
          if (q.category() < 1 || q.category() > 4) {
            continue;
          }
          long t0 = System.nanoTime();
          List<SearchHit> hits = memory.search(SearchRequest.builder(scope, q.question()).topK(o.topK()).build())
              .hits();
          long elapsed = System.nanoTime() - t0;
          report.question(q.category(), score(q, hits), elapsed);
        }
      } finally {
        deleteTree(dir);
      }
    }
    return report.build();
  }

  private static void ingest(Memory memory, Scope scope, Conversation c, Mode mode, IntConsumer progress) {
    for (Session s : c.sessions()) {
      if (mode == Mode.RAW) {
        for (Turn t : s.turns()) {
          memory.add(AddRequest.builder(scope).message(message(t, s)).infer(false).build());
          progress.accept(1);
        }
      } else {
        List<Message> ms = new ArrayList<>();
        for (Turn t : s.turns()) {
          ms.add(message(t, s));
        }
        if (!ms.isEmpty()) {
          memory.add(AddRequest.builder(scope).messages(ms).infer(true).build());
        }
        progress.accept(s.turns().size());
      }
    }
  }

  private static Message message(Turn t, Session s) {
    String text = t.text().isBlank() ? "(shared an image)" : t.text();
    return new Message(Role.USER, text, t.speaker(), s.dateTime(), t.diaId());
  }

  static LocomoReport.QuestionScore score(Question q, List<SearchHit> hits) {
    Set<String> sources = new HashSet<>();
    List<String> texts = new ArrayList<>();
    for (SearchHit h : hits) {
      sources.addAll(h.memory().sourceIds());
      texts.add(h.memory().text());
    }
    return new LocomoReport.QuestionScore(
        RetrievalMetrics.evidenceRecall(q.evidence(), sources),
        RetrievalMetrics.hit(q.evidence(), sources),
        RetrievalMetrics.answerTokenRecall(q.answer(), texts),
        TokenCounter.count(String.join("\n", texts)));
  }

  private static void warmUp(Memory memory, Scope scope, Conversation c) {
    for (int i = 0; i < Math.min(20, c.questions().size()); i++) {
      memory.search(SearchRequest.builder(scope, c.questions().get(i).question()).build());
    }
  }

  private static long memoryTokens(Memory memory, Scope scope) {
    long tokens = 0;
    int offset = 0;
    while (true) {
      Page<MemoryItem> page = memory.list(ListRequest.of(scope).withPage(offset, ListRequest.MAX_LIMIT));
      for (MemoryItem m : page.items()) {
        tokens += TokenCounter.count(m.text());
      }
      if (!page.hasMore()) {
        return tokens;
      }
      offset += page.items().size();
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  static Percentiles percentiles(List<Double> values) {
    return new Percentiles(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
