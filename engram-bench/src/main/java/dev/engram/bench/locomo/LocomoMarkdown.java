package dev.engram.bench.locomo;

import dev.engram.bench.locomo.LocomoReport.Baseline;
import dev.engram.bench.locomo.LocomoReport.Scores;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders a {@link LocomoReport} as Markdown: a table per category id, one per BEAM type when the
 * questions carry one, one per conversation when there are several, the latencies and the longest
 * message, and the baselines.
 */
final class LocomoMarkdown {
  private LocomoMarkdown() {}

  static String render(LocomoReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "LoCoMo `%s`, mode `%s`%s, scopes `%s`, turns per add %s, top-k %d,"
                + " embedder `%s`, fusion `%s`%n%n",
            r.dataset(),
            r.mode(),
            r.speakerPrefix() ? " (speaker prefix)" : "",
            r.scopes(),
            r.turnsPerAdd() == 0 ? "session" : String.valueOf(r.turnsPerAdd()),
            r.topK(),
            r.embedder(),
            r.fusion()));
    Set<String> extra = new TreeSet<>(r.overall().extra().keySet());
    header(sb, "category", extra);
    r.byCategory()
        .forEach(
            (k, s) ->
                row(sb, k + " (" + Locomo.categoryLabel(Integer.parseInt(k)) + ")", s, extra));
    row(sb, "**overall**", r.overall(), extra);
    if (!r.byBeamType().isEmpty()) {
      table(sb, "BEAM type", r.byBeamType(), extra);
    }
    if (r.byConversation().size() > 1) {
      table(sb, "conversation", r.byConversation(), extra);
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "%nsearch p50 %.2f ms, p95 %.2f ms, p99 %.2f ms; ingest %.1f turns/s"
                + " (%.2f ms/turn; embedding %.0f%% of it, %.1f texts/turn: the embedder alone"
                + " %.1f turns/s, %.1f texts/s); memory tokens per conversation %.0f;"
                + " longest message %d characters%n",
            r.latencyMs().searchP50(),
            r.latencyMs().searchP95(),
            r.latencyMs().searchP99(),
            r.ingestTurnsPerSecond(),
            r.latencyMs().ingestPerTurnMean(),
            100 * r.latencyMs().embeddingShare(),
            r.latencyMs().ingestEmbeddedTextsPerTurn(),
            r.latencyMs().embedderTurnsPerSecond(),
            r.latencyMs().embedderTextsPerSecond(),
            r.memoryTokensPerConversation(),
            r.longestMessageChars()));
    sb.append(
        String.format(
            Locale.ROOT,
            "%nEvidence recall and hit average over the %d questions with gold"
                + " evidence; the other columns over all %d. Category ids as in LoCoMo's evaluation (1 multi-hop,"
                + " 2 temporal, 3 open-domain, 4 single-hop); the Mem0 paper's columns single-hop, multi-hop, open-domain,"
                + " temporal are ids 1, 3, 4, 2.%n",
            r.overall().evidenceQuestions(),
            r.overall().questions()));
    if (!r.byBeamType().isEmpty()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "BEAM types are BEAM's own abilities, each mapped onto a category id by the"
                  + " file; abstention questions (category 5) are left out like LoCoMo's adversarial ones.%n"));
    }
    if (r.byConversation().size() > 1 && extra.stream().anyMatch(k -> k.startsWith("offtopic_"))) {
      sb.append(
          String.format(
              Locale.ROOT,
              "A conversation's off-topic columns are its store asked the next conversation's"
                  + " questions (the last conversation's store, the first's).%n"));
    }
    if (!r.baselines().isEmpty()) {
      Set<String> baseExtra = new TreeSet<>();
      r.baselines().forEach(b -> baseExtra.addAll(b.extra().keySet()));
      sb.append("\n| baseline | evidence recall | hit | answer-token recall | context tokens |");
      baseExtra.forEach(k -> sb.append(' ').append(k).append(" |"));
      sb.append("\n|---|---|---|---|---|").append("---|".repeat(baseExtra.size())).append('\n');
      for (Baseline b : r.baselines()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "| %s | %.3f | %.3f | %.3f | %.0f |",
                b.name(),
                b.evidenceRecall(),
                b.hit(),
                b.answerTokenRecall(),
                b.contextTokensMean()));
        baseExtra.forEach(k -> sb.append(cell(b.extra().get(k))));
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /** A table of scores with a row per key of {@code rows}, after a blank line. */
  private static void table(
      StringBuilder sb, String firstColumn, Map<String, Scores> rows, Set<String> extra) {
    sb.append('\n');
    header(sb, firstColumn, extra);
    rows.forEach((k, s) -> row(sb, k, s, extra));
  }

  /** A scores table's header row and separator, the observer's metrics as extra columns. */
  private static void header(StringBuilder sb, String firstColumn, Set<String> extra) {
    sb.append("| ")
        .append(firstColumn)
        .append(
            " | questions | evidence recall@k | hit@k | answer-token recall@k | context tokens |");
    extra.forEach(k -> sb.append(' ').append(k).append(" |"));
    sb.append("\n|---|---|---|---|---|---|").append("---|".repeat(extra.size())).append('\n');
  }

  private static void row(StringBuilder sb, String label, Scores s, Set<String> extra) {
    sb.append(
        String.format(
            Locale.ROOT,
            "| %s | %d | %.3f | %.3f | %.3f | %.0f |",
            label,
            s.questions(),
            s.evidenceRecall(),
            s.hit(),
            s.answerTokenRecall(),
            s.contextTokensMean()));
    extra.forEach(k -> sb.append(cell(s.extra().get(k))));
    sb.append('\n');
  }

  private static String cell(Double v) {
    return v == null ? " – |" : String.format(Locale.ROOT, " %.3f |", v);
  }
}
