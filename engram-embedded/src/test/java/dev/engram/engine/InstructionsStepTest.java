package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ranking step {@value Ranking#INSTRUCTIONS} on a real store (SQLite and Lucene) with the
 * hashing embedder (no model runs here): a standing instruction with a condition moves right after
 * the best hit in the fused ranking of a query about its subject, so it is among the few hits kept,
 * within the query's scope only, and not for a query about something else.
 */
class InstructionsStepTest {
  private static final Scope ANN = Scope.user("ann");
  private static final Scope BOB = Scope.user("bob");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-07-01T12:00:00Z"), ZoneOffset.UTC);
  private static final String INSTRUCTION =
      "Always include version numbers when I ask about software dependencies or libraries.";
  private static final Ranking WITH = Ranking.DEFAULT.with(Ranking.INSTRUCTIONS);
  private static final Ranking WITHOUT = Ranking.NONE.with(Ranking.CONTEXT);

  @TempDir Path dir;
  private Memory memory;

  @BeforeEach
  void open() {
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.at(dir))
            .embedder(new HashEmbedder(256, "instructions-hash-256"))
            .clock(CLOCK)
            .build();
    Instant at = Instant.parse("2024-06-01T10:00:00Z");
    List<String> turns =
        List.of(
            "Which libraries are used in this project? The project uses libraries for charts.",
            "The libraries used in this project are Flask and SQLAlchemy for the project backend.",
            "This project used libraries for login, and the libraries are used in every project page.",
            "Are the libraries used in this project up to date? The project libraries are old.",
            "The project needs a migration deadline by the end of June.",
            INSTRUCTION,
            "My cat sleeps on the sofa all afternoon.");
    for (int i = 0; i < turns.size(); i++) {
      memory.add(
          AddRequest.builder(ANN)
              .message(new Message(Role.USER, turns.get(i), "ann", at.plusSeconds(i), "m" + i))
              .infer(false)
              .timestamp(at.plusSeconds(i))
              .build());
    }
    memory.add(
        AddRequest.builder(BOB)
            .message(
                new Message(
                    Role.USER,
                    "Never use tables when I ask about the migration deadline.",
                    "bob",
                    at,
                    "b0"))
            .infer(false)
            .timestamp(at)
            .build());
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  private List<SearchHit> search(Scope scope, String query, Ranking ranking) {
    return memory
        .search(SearchRequest.builder(scope, query).topK(3).explain(true).ranking(ranking).build())
        .hits();
  }

  @Test
  void anInstructionMovesRightAfterTheBestHitOfAQueryAboutItsSubject() {
    String query = "Which libraries does this project use?";
    assertThat(search(ANN, query, WITHOUT))
        .extracting(h -> h.memory().text())
        .doesNotContain(INSTRUCTION);

    List<SearchHit> hits = search(ANN, query, WITH);
    assertThat(hits).hasSize(3);
    assertThat(hits)
        .filteredOn(h -> h.memory().text().equals(INSTRUCTION))
        .singleElement()
        .satisfies(
            h ->
                assertThat(h.details().steps().get(Ranking.INSTRUCTIONS))
                    .startsWith("an instruction for what the query asks about: fused rank ")
                    .contains(" -> 2,"));
  }

  @Test
  void anInstructionStaysInItsPlaceForOtherSubjectsAndOtherScopes() {
    assertThat(search(ANN, "When is the migration deadline for the project?", WITH))
        .extracting(h -> h.memory().text())
        .doesNotContain(INSTRUCTION)
        .allSatisfy(text -> assertThat(text).doesNotStartWith("Never use tables"));
    assertThat(search(BOB, "Which libraries does this project use?", WITH))
        .extracting(h -> h.memory().text())
        .doesNotContain(INSTRUCTION);
  }

  /** An empty subject: not an instruction with a condition. */
  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      Always include version numbers when I ask about software dependencies. | software dependencies
      "Always format code with syntax highlighting when Ann asks about implementation details." | implementation details
      "Never use jQuery whenever I ask for front-end examples; plain JS only." | front-end examples
      Please always answer in French when I talk about my holidays! | my holidays
      "When I ask about probability, always give a worked example." | probability
      "If I ask for a recipe, never suggest peanuts." | a recipe
      Always back up the database before a migration. | ""
      I always ask my sister about recipes. | ""
      "When Caroline asked about Paris, I told her it rained." | ""
      """)
  void readsTheSubjectOfAnInstructionsCondition(String text, String subject) {
    assertThat(InstructionsStep.subject(text))
        .isEqualTo(subject.isEmpty() ? Optional.empty() : Optional.of(subject));
  }
}
