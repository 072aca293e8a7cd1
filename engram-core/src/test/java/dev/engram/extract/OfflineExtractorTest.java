package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import dev.engram.spi.MemoryInference.Add;
import dev.engram.spi.MemoryInference.InferenceContext;
import dev.engram.spi.MemoryInference.Noop;
import dev.engram.spi.MemoryInference.PlannedChange;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OfflineExtractorTest {

  private static final Instant SESSION = Instant.parse("2023-05-08T13:56:00Z");

  private final OfflineExtractor extractor = OfflineExtractor.create();

  private static Message said(String speaker, String text, String sourceId) {
    return new Message(Role.USER, text, speaker, SESSION, sourceId);
  }

  /**
   * A context of one message as the engine gives it, with its passage limit and context-embedding
   * setting.
   */
  private static InferenceContext engineContext(
      Message message, int passageTokens, boolean contextEmbeddings) {
    return new InferenceContext(
        "default",
        Scope.user("u1"),
        List.of(message),
        List.of(),
        Map.of(),
        null,
        new FakeScopeMemories(),
        "",
        new dev.engram.spi.UsageMeter(),
        passageTokens,
        TokenCounter.cl100k(),
        contextEmbeddings);
  }

  private static InferenceContext context(
      List<Message> messages, Instant timestamp, FakeScopeMemories memories) {
    return new InferenceContext(
        "default", Scope.user("u1"), messages, List.of(), Map.of(), timestamp, memories);
  }

  @Test
  void plansOneAddPerKeptSentenceWithSpeakerTimeAndSource() {
    List<Message> messages =
        List.of(
            Message.system("You are a helpful assistant."),
            said("Caroline", "Hey Mel! Good to see you! How have you been?", "D1:1"),
            said(
                "Melanie",
                "Hey Caroline! I'm swamped with the kids & work. What's up with you?",
                "D1:2"),
            said(
                "Caroline",
                "I went to a LGBTQ support group yesterday and it was so powerful.",
                "D1:3"),
            said("Melanie", "Wow, that’s great! I painted that lake sunrise last year.", "D1:4"));

    List<PlannedChange> plan = extractor.plan(context(messages, null, new FakeScopeMemories()));

    assertThat(plan)
        .containsExactly(
            new Add(
                "Melanie is swamped with the kids & work.",
                "Melanie",
                Role.USER,
                SESSION,
                List.of("D1:2")),
            new Add(
                "Caroline went to a LGBTQ support group yesterday (7 May 2023) and it was so powerful.",
                "Caroline",
                Role.USER,
                SESSION,
                List.of("D1:3")),
            new Add(
                "Melanie painted that lake sunrise last year (2022).",
                "Melanie",
                Role.USER,
                SESSION,
                List.of("D1:4")));
  }

  @Test
  void fallsBackToTheAddTimestampAndKeepsTextWithoutNameOrTime() {
    Instant addTime = Instant.parse("2024-01-01T09:00:00Z");
    Message unnamed = Message.user("I’m moving to Lisbon next month with my partner.");
    Message named =
        Message.assistant("I ran a charity race yesterday for the shelter.").withName("Bot");

    assertThat(extractor.plan(context(List.of(unnamed, named), addTime, new FakeScopeMemories())))
        .containsExactly(
            new Add(
                "I'm moving to Lisbon next month (February 2024) with my partner.",
                null,
                Role.USER,
                addTime,
                List.of()),
            new Add(
                "Bot ran a charity race yesterday (31 December 2023) for the shelter.",
                "Bot",
                Role.ASSISTANT,
                addTime,
                List.of()));
    assertThat(extractor.plan(context(List.of(unnamed), null, new FakeScopeMemories())))
        .containsExactly(
            new Add(
                "I'm moving to Lisbon next month with my partner.",
                null,
                Role.USER,
                null,
                List.of()));
  }

  private static final Message ASKED_AFTER_A_STATEMENT =
      said(
          "User",
          "I'm migrating our Flask 2.3 app to FastAPI by next Friday, can you help me port the"
              + " login routes?",
          "S1:3");

  @Test
  void keepsAUsersRequestWithTheStatementItOpensWith() {
    assertThat(extractor.facts(ASKED_AFTER_A_STATEMENT, null))
        .containsExactly(
            "User is migrating our Flask 2.3 app to FastAPI by next Friday (12 May 2023), can you"
                + " help User port the login routes?");
    assertThat(
            extractor.facts(
                ASKED_AFTER_A_STATEMENT,
                null,
                Engram.Builder.DEFAULT_PASSAGE_TOKENS,
                TokenCounter.cl100k(),
                OfflineExtractor.Requests.STATEMENT))
        .containsExactly(
            "User is migrating our Flask 2.3 app to FastAPI by next Friday (12 May 2023).");
  }

  /**
   * A plan keeps the request unless its memories get context embeddings, which hold the whole
   * message.
   */
  @Test
  void aPlanKeepsTheStatementAloneWhenItsMemoriesGetContextEmbeddings() {
    for (boolean contextEmbeddings : new boolean[] {false, true}) {
      InferenceContext context =
          engineContext(
              ASKED_AFTER_A_STATEMENT, Engram.Builder.DEFAULT_PASSAGE_TOKENS, contextEmbeddings);

      assertThat(extractor.plan(context))
          .extracting(c -> ((Add) c).text())
          .containsExactly(
              contextEmbeddings
                  ? "User is migrating our Flask 2.3 app to FastAPI by next Friday (12 May 2023)."
                  : "User is migrating our Flask 2.3 app to FastAPI by next Friday (12 May 2023),"
                      + " can you help User port the login routes?");
    }
  }

  @Test
  void keepsAMessageWithoutAFactVerbatimWithItsDates() {
    Message asked =
        said("User", "Hmm, what if the webhook fires twice tomorrow during the deploy?", "S1:5");
    Message greeting = said("User", "Hey, how are you?", "S1:6");

    assertThat(extractor.facts(asked, null))
        .containsExactly(
            "Hmm, what if the webhook fires twice tomorrow (9 May 2023) during the deploy?");
    assertThat(extractor.facts(greeting, null)).isEmpty();
  }

  @Test
  void keepsTheLinesOfACodeBlockAndNamesInCodeAsWritten() {
    Message pasted =
        said(
            "User",
            "I set up my_app.py like this tomorrow:\n"
                + "```python\n"
                + "app.config['DATABASE'] = 'sqlite:///my_budget.db'\n"
                + "def make_db_call():\n"
                + "    return run_query(today_only=True)\n"
                + "fetch(`/geo?q=${city}`); // why not? Oh! <!-- an old note -->\n"
                + "```\n"
                + "Now I call `my_helper()` from my module.",
            "S1:7");

    assertThat(extractor.facts(pasted, null))
        .containsExactly(
            "User set up my_app.py like this tomorrow (9 May 2023):",
            "app.config['DATABASE'] = 'sqlite:///my_budget.db'",
            "def make_db_call():",
            "return run_query(today_only=True)",
            "fetch(`/geo?q=${city}`); // why not? Oh! <!-- an old note -->",
            "Now User calls `my_helper()` from User's module.");
  }

  @Test
  void keepsALongMessageWithoutAFactInPassages() {
    StringBuilder question = new StringBuilder("Hmm, what if");
    for (int i = 0; i < 40; i++) {
      question.append(" worker ").append(i).append(" retries the upload and");
    }
    question.append(" the queue fills up?");
    List<String> passages =
        extractor.facts(said("User", question.toString(), "S2:2"), null, 64, TokenCounter.cl100k());

    assertThat(passages).hasSizeGreaterThan(1);
    assertThat(passages)
        .allSatisfy(p -> assertThat(TokenCounter.cl100k().count(p)).isLessThanOrEqualTo(64));
    assertThat(String.join(" ", passages)).isEqualTo(question.toString());
  }

  @Test
  void splitsAMessageKeptAsSaidAtTheContextsPassageLimit() {
    StringBuilder question = new StringBuilder("Hmm, what if");
    for (int i = 0; i < 40; i++) {
      question.append(" worker ").append(i).append(" retries the upload and");
    }
    question.append(" the queue fills up?");
    InferenceContext context = engineContext(said("User", question.toString(), "S2:2"), 64, false);

    List<PlannedChange> plan = extractor.plan(context);

    assertThat(plan).hasSizeGreaterThan(1);
    assertThat(plan)
        .allSatisfy(
            c -> assertThat(TokenCounter.cl100k().count(((Add) c).text())).isLessThanOrEqualTo(64));
    assertThat(plan.stream().map(c -> ((Add) c).text()).toList())
        .isEqualTo(
            extractor.facts(
                said("User", question.toString(), "S2:2"), null, 64, TokenCounter.cl100k()));
  }

  @Test
  void exactDuplicateOfAStoredMemoryIsNoop() {
    FakeScopeMemories memories =
        new FakeScopeMemories().with("m-1", "Caroline adopted a puppy named Max.");

    List<PlannedChange> plan =
        extractor.plan(
            context(
                List.of(said("Caroline", "I adopted a puppy named Max.", "D2:1")), null, memories));

    assertThat(plan).containsExactly(new Noop("m-1"));
    assertThat(memories.similarQueries()).isEmpty();
  }

  @Test
  void nearDuplicateOfAStoredMemoryIsNoopAndADifferentFactIsAdded() {
    // 11 of the stored memory's 12 tokens and no others: Jaccard 11/12 = 0.917 >= 0.9.
    FakeScopeMemories memories =
        new FakeScopeMemories()
            .with("m-1", "caroline adopted a puppy named max")
            .with("m-2", "Melanie ran a charity race for mental health in the park downtown");

    List<PlannedChange> plan =
        extractor.plan(
            context(
                List.of(
                    said("Caroline", "I adopted a puppy named Max!", "D2:1"),
                    said("Melanie", "I ran a charity race for mental health in the park.", "D2:2"),
                    said("Melanie", "I ran a charity race.", "D2:3")),
                null,
                memories));

    assertThat(plan)
        .containsExactly(
            new Noop("m-1"),
            new Noop("m-2"),
            new Add("Melanie ran a charity race.", "Melanie", Role.USER, SESSION, List.of("D2:3")));
    assertThat(memories.similarQueries())
        .containsExactly(
            "Caroline adopted a puppy named Max!",
            "Melanie ran a charity race for mental health in the park.",
            "Melanie ran a charity race.");
  }

  @Test
  void duplicatesWithinOneAddAreAddedOnce() {
    List<PlannedChange> plan =
        extractor.plan(
            context(
                List.of(
                    said("Caroline", "I adopted a puppy named Max.", "D3:1"),
                    said("Caroline", "I adopted a puppy named Max.", "D3:2"),
                    said("Caroline", "i adopted a puppy named max!!", "D3:3")),
                null,
                new FakeScopeMemories()));

    assertThat(plan)
        .containsExactly(
            new Add(
                "Caroline adopted a puppy named Max.",
                "Caroline",
                Role.USER,
                SESSION,
                List.of("D3:1")));
  }

  @Test
  void aStoredMemoryGetsOneNoopEvenIfTwoFactsMatchIt() {
    // Each fact adds one token to the memory's 12 (12/13 = 0.923); the two facts share 12 of 14
    // (0.857).
    FakeScopeMemories memories =
        new FakeScopeMemories()
            .with("m-9", "Caroline keeps a small garden with tomatoes and basil on the balcony");

    List<PlannedChange> plan =
        extractor.plan(
            context(
                List.of(
                    said(
                        "Caroline",
                        "I keep a small garden with tomatoes and basil on the balcony too.",
                        "D4:1"),
                    said(
                        "Caroline",
                        "I keep a small garden with tomatoes and basil on the sunny balcony.",
                        "D4:2")),
                null,
                memories));

    assertThat(plan).containsExactly(new Noop("m-9"));
  }

  @Test
  void optionsTuneContentThresholdAndNearDuplicateSearch() {
    FakeScopeMemories memories = new FakeScopeMemories().with("m-1", "caroline loves it");
    OfflineExtractor lenient =
        OfflineExtractor.create(
            OfflineExtractor.Options.defaults().withMinContentWords(1).withSimilarCandidates(0));
    OfflineExtractor strict =
        OfflineExtractor.create(OfflineExtractor.Options.defaults().withMinContentWords(3));

    List<PlannedChange> plan =
        lenient.plan(context(List.of(said("Caroline", "Love it.", "D5:1")), null, memories));

    assertThat(plan)
        .containsExactly(new Add("Love it.", "Caroline", Role.USER, SESSION, List.of("D5:1")));
    assertThat(memories.similarQueries()).isEmpty();
    assertThat(
            extractor.plan(context(List.of(said("Caroline", "Love it.", "D5:1")), null, memories)))
        .isEmpty();
    // two content words (the first person and "love"): the default keeps it, three does not
    assertThat(
            extractor.plan(
                context(
                    List.of(said("Caroline", "I love it.", "D5:2")),
                    null,
                    new FakeScopeMemories())))
        .containsExactly(
            new Add("Caroline loves it.", "Caroline", Role.USER, SESSION, List.of("D5:2")));
    assertThat(
            strict.plan(context(List.of(said("Caroline", "I love it.", "D5:2")), null, memories)))
        .isEmpty();
    assertThat(lenient.options()).isEqualTo(new OfflineExtractor.Options(1, 0.9, 0));
    assertThat(OfflineExtractor.Options.defaults())
        .isEqualTo(new OfflineExtractor.Options(2, 0.9, 3));
  }

  @Test
  void rejectsBadOptionsNamingFieldAndValue() {
    assertThatThrownBy(() -> new OfflineExtractor.Options(-1, 0.9, 3))
        .isInstanceOf(ValidationException.class)
        .hasMessage("minContentWords: must be 0 or more, was -1");
    assertThatThrownBy(() -> new OfflineExtractor.Options(3, 0.0, 3))
        .isInstanceOf(ValidationException.class)
        .hasMessage("nearDuplicateThreshold: must be in (0, 1], was 0.0");
    assertThatThrownBy(() -> new OfflineExtractor.Options(3, 0.9, 101))
        .isInstanceOf(ValidationException.class)
        .hasMessage("similarCandidates: must be in [0, 100], was 101");
    assertThatThrownBy(
            () ->
                extractor.facts(said("User", "What now?", "S1:1"), null, 0, TokenCounter.cl100k()))
        .isInstanceOf(ValidationException.class)
        .hasMessage("passageTokens: must be at least 1, was 0");
  }

  @Test
  void factsOfOneMessage() {
    assertThat(extractor.facts(Message.system("I am the system and I have rules."), SESSION))
        .isEmpty();
    assertThat(
            extractor.facts(
                said(
                    "Jon",
                    "Lost my job as a banker yesterday, so I'm gonna start my own business."
                        + " Any ideas?",
                    "D6:1"),
                null))
        .containsExactly(
            "Jon lost Jon's job as a banker yesterday (7 May 2023), so Jon is gonna start Jon's own business.");
  }
}
