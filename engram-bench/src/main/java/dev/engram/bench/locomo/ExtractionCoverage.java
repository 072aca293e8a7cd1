package dev.engram.bench.locomo;

import dev.engram.Message;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.extract.OfflineExtractor;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A diagnostic of the offline extractor, without a store or an embedder: for every question's
 * evidence turn, how many facts {@link OfflineExtractor#facts} makes of it, tallied per BEAM type
 * (or LoCoMo category), and with {@code --show N} the first N evidence turns that yield no fact,
 * printed with their text so that one can see why the filter or the splitter drops them; with
 * {@code --facts SAMPLE/DIA_ID,...} the facts of those turns.
 *
 * <p>Usage: {@code java -cp engram.jar dev.engram.bench.locomo.ExtractionCoverage FILE [--show N]
 * [--facts SAMPLE/DIA_ID,...]}. It reads the messages as {@code bench locomo} builds them (one
 * scope, named after the speaker, at the session's time).
 */
public final class ExtractionCoverage {
  private ExtractionCoverage() {}

  /** Runs the diagnostic; see the class comment for the arguments. */
  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: ExtractionCoverage FILE [--show N]");
      System.exit(2);
    }
    int show = 0;
    Set<String> dump = new java.util.HashSet<>();
    for (int i = 1; i + 1 < args.length; i++) {
      if (args[i].equals("--show")) {
        show = Integer.parseInt(args[i + 1]);
      } else if (args[i].equals("--facts")) {
        dump.addAll(List.of(args[i + 1].split(",")));
      }
    }
    OfflineExtractor extractor = OfflineExtractor.create();
    Map<String, int[]> byType = new TreeMap<>();
    int shown = 0;
    int turns = 0;
    int turnsWithoutFact = 0;
    int factCount = 0;
    for (Conversation c : LocomoReader.read(Path.of(args[0]))) {
      Map<String, Message> messages = new HashMap<>();
      for (Session s : c.sessions()) {
        for (Turn t : s.turns()) {
          Message m = ConversationStore.message(t, s, "", false);
          messages.put(t.diaId(), m);
          List<String> made = extractor.facts(m, m.timestamp());
          int n = made.size();
          if (dump.contains(c.sampleId() + "/" + t.diaId())) {
            System.out.println("=== " + c.sampleId() + "/" + t.diaId());
            made.forEach(f -> System.out.println("  * " + f));
          }
          turns++;
          factCount += n;
          turnsWithoutFact += n == 0 ? 1 : 0;
        }
      }
      Set<String> printed = new LinkedHashSet<>();
      for (Question q : c.questions()) {
        String type = q.beamType().orElse(Locomo.categoryLabel(q.category()));
        for (String id : q.evidence()) {
          Message m = messages.get(id);
          if (m == null) {
            continue;
          }
          List<String> facts = extractor.facts(m, null);
          int[] tally = byType.computeIfAbsent(type, k -> new int[2]);
          tally[0]++;
          if (facts.isEmpty()) {
            tally[1]++;
            if (shown < show && printed.add(c.sampleId() + " " + id)) {
              shown++;
              String text = m.content().replace('\n', '|');
              System.out.printf(
                  Locale.ROOT,
                  "--- %s %s %s (%d chars)%n%s%n",
                  c.sampleId(),
                  id,
                  type,
                  text.length(),
                  text.length() > 600 ? text.substring(0, 600) + "..." : text);
            }
          }
        }
      }
    }
    int all = 0;
    int empty = 0;
    for (Map.Entry<String, int[]> e : byType.entrySet()) {
      all += e.getValue()[0];
      empty += e.getValue()[1];
      System.out.printf(
          Locale.ROOT,
          "%-28s evidence turns %4d, without a fact %4d (%.3f)%n",
          e.getKey(),
          e.getValue()[0],
          e.getValue()[1],
          e.getValue()[1] / (double) e.getValue()[0]);
    }
    System.out.printf(
        Locale.ROOT,
        "%-28s evidence turns %4d, without a fact %4d (%.3f)%n",
        "all",
        all,
        empty,
        empty / (double) Math.max(1, all));
    System.out.printf(
        Locale.ROOT, "turns %d, without a fact %d, facts %d%n", turns, turnsWithoutFact, factCount);
  }
}
