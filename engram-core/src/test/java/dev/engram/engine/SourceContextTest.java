package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.TokenCounter;
import dev.engram.text.Passage;
import dev.engram.text.Passages;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a new memory keeps of the conversation it was drawn from ({@link SourceContext}). */
class SourceContextTest {
  private static Message said(String sourceId, String text) {
    return new Message(Role.USER, text, "ana", null, sourceId);
  }

  private static final Message QUESTION = said("d1:4", "What are your plans for the summer?");
  private static final Message ANSWER =
      said("d1:5", "Researching adoption agencies. And painting!");
  private static final Message WINDOW = said("d1:3", "How was your week?");

  /** The memory's own text, unlike any message's (as an extractor writes it). */
  private static final String FACT = "Ana researches adoption agencies";

  @Test
  void aMemoryKeepsItsSourceMessageAndTheMessageBeforeIt() {
    assertThat(
            SourceContext.of(List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("d1:5"), FACT))
        .isEqualTo(
            "What are your plans for the summer?\nResearching adoption agencies. And painting!");
  }

  @Test
  void theFirstMessageOfAnAddFollowsTheLastOfTheWindow() {
    assertThat(
            SourceContext.of(List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("d1:4"), FACT))
        .isEqualTo("How was your week?\nWhat are your plans for the summer?");
    assertThat(SourceContext.of(List.of(QUESTION, ANSWER), Optional.empty(), List.of("d1:4"), FACT))
        .isEqualTo("What are your plans for the summer?");
  }

  @Test
  void aMemoryOfSeveralMessagesKeepsThemAllAfterTheOneBeforeTheFirst() {
    Message later = said("d1:6", "Also a trip to Porto.");
    assertThat(
            SourceContext.of(
                List.of(QUESTION, ANSWER, later), Optional.empty(), List.of("d1:6", "d1:5"), FACT))
        .isEqualTo(
            "What are your plans for the summer?\nResearching adoption agencies. And painting!\n"
                + "Also a trip to Porto.");
  }

  @Test
  void withoutKnownSourceIdsTheWholeExchangeIsTheContext() {
    String all =
        "How was your week?\nWhat are your plans for the summer?\n"
            + "Researching adoption agencies. And painting!";
    assertThat(SourceContext.of(List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of(), FACT))
        .isEqualTo(all);
    assertThat(
            SourceContext.of(
                List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("elsewhere"), FACT))
        .isEqualTo(all);
    Message unnamed = new Message(Role.USER, "I moved to Lisbon", null, null, null);
    assertThat(SourceContext.of(List.of(unnamed), Optional.empty(), List.of(), FACT))
        .isEqualTo("I moved to Lisbon");
  }

  @Test
  void aMessageStoredVerbatimAsTheMemoryIsNotRepeated() {
    assertThat(
            SourceContext.of(
                List.of(QUESTION, ANSWER),
                Optional.empty(),
                List.of("d1:5"),
                " Researching adoption agencies. And painting!"))
        .isEqualTo("What are your plans for the summer?");
    assertThat(
            SourceContext.of(
                List.of(ANSWER),
                Optional.empty(),
                List.of("d1:5"),
                "Researching adoption agencies. And painting!"))
        .isEmpty();
  }

  @Test
  void systemMessagesAreNeverPartOfIt() {
    Message system = new Message(Role.SYSTEM, "You are a helpful assistant", null, null, "d1:0");
    assertThat(
            SourceContext.of(
                List.of(system, QUESTION, ANSWER), Optional.empty(), List.of("d1:4"), FACT))
        .isEqualTo("What are your plans for the summer?");
    assertThat(SourceContext.of(List.of(QUESTION), Optional.of(system), List.of("d1:4"), FACT))
        .isEqualTo("What are your plans for the summer?");
    assertThat(SourceContext.of(List.of(system), Optional.empty(), List.of(), FACT)).isEmpty();
  }

  @Test
  void longMessagesAndLongExchangesAreCut() {
    String emoji = "😀";
    String longText = "a".repeat(SourceContext.MAX_MESSAGE_CHARACTERS - 1) + emoji + "tail";
    String cut =
        SourceContext.of(List.of(said("x:1", longText)), Optional.empty(), List.of("x:1"), FACT);
    assertThat(cut)
        .isEqualTo("a".repeat(SourceContext.MAX_MESSAGE_CHARACTERS - 1)); // never half a character
    Message[] many = new Message[SourceContext.MAX_MESSAGES + 3];
    String[] ids = new String[many.length];
    for (int i = 0; i < many.length; i++) {
      many[i] = said("m:" + i, "message " + i);
      ids[i] = "m:" + i;
    }
    String context = SourceContext.of(List.of(many), Optional.empty(), List.of(ids), FACT);
    assertThat(context.split("\n")).hasSize(SourceContext.MAX_MESSAGES).startsWith("message 0");
    // a long add without provenance: no telling which of its messages a memory came from
    assertThat(SourceContext.of(List.of(many), Optional.empty(), List.of(), FACT)).isEmpty();
    assertThat(
            SourceContext.of(
                    List.of(many).subList(0, SourceContext.MAX_MESSAGES - 1),
                    Optional.empty(),
                    List.of(),
                    FACT)
                .split("\n"))
        .hasSize(SourceContext.MAX_MESSAGES - 1);
  }

  @Test
  void aLongSourceMessageGivesThePassageThatHoldsTheMemory() {
    String opening =
        "We talked about the deployment schedule and the database migration. ".repeat(30);
    String ending = "Ana adopted a beagle called Biscuit, who loves the beach.";
    Message longOne = said("d2:1", opening + "\n\n" + ending);
    TokenCounter counter = TokenCounter.cl100k();
    java.util.function.Function<String, List<Passage>> passagesOf =
        text -> counter.count(text) <= 100 ? List.of() : Passages.split(text, 100, counter);

    // an extracted fact shares the ending's words: its context is the ending, not the opening
    String fact = "Ana has a beagle named Biscuit";
    String context =
        SourceContext.of(List.of(longOne), Optional.of(WINDOW), List.of("d2:1"), fact, passagesOf);
    assertThat(context).startsWith("How was your week?\n").endsWith(ending);
    assertThat(context.length()).isLessThan(opening.length() / 2);

    // a memory that is a passage of the message (raw) adds none of it: as a short message stored
    // verbatim
    List<Passage> passages = passagesOf.apply(longOne.content());
    assertThat(passages).hasSizeGreaterThan(2);
    String last = passages.get(passages.size() - 1).text();
    assertThat(
            SourceContext.of(
                List.of(longOne), Optional.of(WINDOW), List.of("d2:1"), last, passagesOf))
        .isEqualTo("How was your week?");

    // a short message is whole, as before
    assertThat(
            SourceContext.of(
                List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("d1:5"), FACT, passagesOf))
        .isEqualTo(
            SourceContext.of(
                List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("d1:5"), FACT));
  }
}
