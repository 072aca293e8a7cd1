package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.testing.HashEmbedder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ranking's results on a fixed store, recorded before a restructuring of the search path and
 * compared after it: for every ranking spec (each of the 128 sets of steps), a set of requests
 * (names, dates, an off-topic question, questions that name no one, a budget, a threshold) gets the
 * same hits, in the same order, with the same scores, and the same graph relations. The store is
 * real (SQLite and Lucene) and filled twice from one fixed conversation: its raw turns and the
 * offline extractor's facts with the offline graph. The embedder is a deterministic hashing fake
 * (no model runs here) and the ids are sequential ({@link Engram.Builder#ids}), so the scores and
 * the order of equal scores are the same on every run and machine.
 *
 * <p>{@code -Dengram.golden.record=true} writes the file anew instead of comparing (only for a
 * change that is meant to change results, said in its commit).
 */
class RankingGoldenTest {
  private static final Path GOLDEN =
      Path.of("src/test/resources/dev/engram/engine/ranking-golden.txt");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-07-01T12:00:00Z"), ZoneOffset.UTC);

  private static final List<String> QUERIES =
      List.of(
          "Where does Maya live?",
          "What pet does Tom have?",
          "What did Maya do in May 2024?",
          "What happened last week?",
          "Which database version did we pick for the service?",
          "What is the deadline for the migration?",
          "What did Caroline say about Paris?",
          "How do I bake sourdough bread?",
          "which instrument is she learning",
          "What does the user prefer for code formatting?");

  @Test
  void everyRankingSpecGivesTheRecordedHits(@TempDir Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    for (boolean infer : new boolean[] {false, true}) {
      String store = infer ? "extracted" : "raw";
      Engram.Builder builder =
          Engram.builder()
              .storage(EmbeddedStorage.at(dir.resolve(store)))
              .embedder(new HashEmbedder(256, "golden-hash-256"))
              .clock(CLOCK)
              .ids(sequentialIds());
      try (Memory memory =
          (infer ? builder.graph(OfflineGraphExtractor.create()) : builder).build()) {
        Scope scope = Scope.user("golden");
        for (List<Message> session : GoldenConversation.sessions()) {
          memory.add(
              AddRequest.builder(scope)
                  .messages(session)
                  .infer(infer)
                  .timestamp(session.get(0).timestamp())
                  .build());
        }
        for (int spec = 0; spec < 128; spec++) {
          Ranking ranking = ranking(spec);
          for (String query : QUERIES) {
            lines.add(
                line(
                    store,
                    ranking,
                    "top5",
                    query,
                    memory.search(
                        SearchRequest.builder(scope, query).topK(5).ranking(ranking).build())));
          }
          String query = QUERIES.get(spec % QUERIES.size());
          lines.add(
              line(
                  store,
                  ranking,
                  "budget120",
                  query,
                  memory.search(
                      SearchRequest.builder(scope, query)
                          .topK(50)
                          .maxTokens(120)
                          .ranking(ranking)
                          .build())));
          lines.add(
              line(
                  store,
                  ranking,
                  "threshold0.3",
                  query,
                  memory.search(
                      SearchRequest.builder(scope, query)
                          .topK(10)
                          .threshold(0.3)
                          .ranking(ranking)
                          .build())));
        }
      }
    }
    String actual = String.join("\n", lines) + "\n";
    Files.writeString(Path.of("target/ranking-golden.actual.txt"), actual, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("engram.golden.record")) {
      Files.createDirectories(GOLDEN.getParent());
      Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
    }
    assertThat(lines).hasSize(2 * 128 * (QUERIES.size() + 2));
    assertThat(actual.lines().toList()).containsExactlyElementsOf(golden().lines().toList());
  }

  /**
   * Ids in order of creation, so that ties between equal scores break the same way on every run.
   */
  private static Supplier<String> sequentialIds() {
    AtomicInteger next = new AtomicInteger();
    return () ->
        String.format(Locale.ROOT, "00000000-0000-0000-0000-%012d", next.incrementAndGet());
  }

  private static String golden() throws IOException {
    return Files.readString(GOLDEN, StandardCharsets.UTF_8);
  }

  /**
   * The ranking whose steps are the bits of {@code bits}, in the order of {@link Ranking#STEPS}.
   */
  static Ranking ranking(int bits) {
    List<String> on = new ArrayList<>();
    for (int i = 0; i < Ranking.STEPS.size(); i++) {
      if ((bits & (1 << i)) != 0) {
        on.add(Ranking.STEPS.get(i));
      }
    }
    return Ranking.of(on);
  }

  private static String line(
      String store, Ranking ranking, String kind, String query, SearchResult result) {
    String hits =
        result.hits().stream().map(RankingGoldenTest::hit).collect(Collectors.joining(" | "));
    String relations =
        result.relations().stream()
            .map(RankingGoldenTest::relation)
            .collect(Collectors.joining(" | "));
    return store
        + "\t"
        + ranking.spec()
        + "\t"
        + kind
        + "\t"
        + query
        + "\t"
        + hits
        + "\t"
        + relations;
  }

  private static String hit(SearchHit h) {
    return h.memory().text() + " @" + h.score();
  }

  private static String relation(GraphRelation r) {
    return r.source() + " -" + r.relationship() + "-> " + r.destination() + " @" + r.score();
  }

  /**
   * A fixed conversation of two kinds: two friends catching up (names, pets, places, dates) and a
   * user working with an assistant on a service (versions, deadlines, preferences, long answers),
   * in sessions with their dates.
   */
  static final class GoldenConversation {
    private static final String[][] FRIENDS_1 = {
      {
        "Maya",
        "Big news: I finally moved to Lisbon last week. My new flat is in Alfama, close to the river."
      },
      {"Tom", "Congratulations! Did Biscuit come with you?"},
      {
        "Maya", "Of course, my beagle Biscuit flew with me. He already loves the old tiled streets."
      },
      {
        "Tom",
        "I'm still in Berlin, but I just started a new job as a nurse at the Charite hospital."
      },
      {"Maya", "I keep working remotely as a data engineer for a solar energy company."},
      {"Tom", "I adopted a grey cat called Pixel from the animal shelter last weekend."},
    };
    private static final String[][] FRIENDS_2 = {
      {
        "Maya",
        "I signed up for Portuguese lessons on Tuesday evenings and started learning the cello."
      },
      {"Tom", "I'm training for the Berlin half marathon in September; I run three times a week."},
      {"Maya", "I started surfing at Costa da Caparica. I fell off the board about fifty times."},
      {"Tom", "My sister Lena is getting married in Porto in July, so I will visit Portugal then."},
      {"Maya", "The doctor says I'm allergic to cats, so I'll need antihistamines to visit you."},
      {"Tom", "Also, I stopped eating meat in May and I'm learning to cook vegetarian food."},
    };
    private static final String[][] PROJECT_1 = {
      {
        "user",
        "We need to move the billing service from PostgreSQL 13 to PostgreSQL 16 before the end of"
            + " August; the deadline is 2024-08-30."
      },
      {
        "assistant",
        "Understood. For the migration I suggest pg_upgrade with --link, a dry run on a copy of"
            + " the production volume first, and a rollback plan that keeps the old cluster for a week."
      },
      {
        "user",
        "We picked PostgreSQL 16.3 for the service, and the connection pool stays on HikariCP 5.1."
      },
      {
        "user",
        "Please always format Java code with google-java-format and keep lines under 100 characters."
      },
      {
        "assistant",
        "Noted: google-java-format, 100 columns. I will also keep imports sorted and unused ones"
            + " removed in every snippet I give you."
      },
    };
    private static final String[][] PROJECT_2 = {
      {
        "user",
        "The dry run took 14 minutes on the copy; the index rebuild for invoices_by_customer was the"
            + " slowest step."
      },
      {
        "assistant",
        "Then rebuild invoices_by_customer concurrently after the switch, so the downtime window"
            + " only covers pg_upgrade itself."
      },
      {
        "user",
        "Decision: we switch on Saturday 2024-08-24 at 06:00 UTC, and Priya owns the rollback."
      },
      {"user", "I prefer answers as short numbered steps rather than long paragraphs."},
    };

    private GoldenConversation() {}

    static List<List<Message>> sessions() {
      return List.of(
          session("friends-1", "2024-05-04T18:20:00Z", FRIENDS_1),
          session("friends-2", "2024-06-24T09:05:00Z", FRIENDS_2),
          session("project-1", "2024-06-10T08:00:00Z", PROJECT_1),
          session("project-2", "2024-06-27T15:30:00Z", PROJECT_2));
    }

    private static List<Message> session(String id, String date, String[][] turns) {
      Instant at = Instant.parse(date);
      List<Message> out = new ArrayList<>(turns.length);
      for (int i = 0; i < turns.length; i++) {
        Role role = turns[i][0].equals("assistant") ? Role.ASSISTANT : Role.USER;
        out.add(
            new Message(
                role, turns[i][1], turns[i][0], at.plusSeconds(60L * i), id + ":" + (i + 1)));
      }
      return out;
    }
  }
}
