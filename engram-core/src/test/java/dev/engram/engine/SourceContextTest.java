package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.TokenCounter;
import dev.engram.text.Passage;
import dev.engram.text.Passages;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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

  /** A message of several passages of at most 100 tokens, its fact in the last. */
  private static final String OPENING =
      IntStream.rangeClosed(1, 30)
          .mapToObj(
              i -> "On day " + i + " we talked about the deployment schedule and the migration.")
          .collect(Collectors.joining(" "));

  private static final String ENDING = "Ana adopted a beagle called Biscuit, who loves the beach.";
  private static final Message LONG_ONE = said("d2:1", OPENING + "\n\n" + ENDING);
  private static final TokenCounter COUNTER = TokenCounter.cl100k();
  private static final Function<String, List<Passage>> PASSAGES_OF =
      text -> COUNTER.count(text) <= 100 ? List.of() : Passages.split(text, 100, COUNTER);

  @Test
  void aLongSourceMessageGivesThePassageThatHoldsTheMemory() {
    List<Passage> passages = PASSAGES_OF.apply(LONG_ONE.content());
    assertThat(passages).hasSizeGreaterThan(2);
    String lastPassage = passages.get(passages.size() - 1).text();
    assertThat(lastPassage).endsWith(ENDING);

    // an extracted fact shares the ending's words: its context is the ending's passage, not the
    // opening (and not the message before: a long message does not follow it)
    String fact = "Ana has a beagle named Biscuit";
    assertThat(
            SourceContext.of(
                List.of(LONG_ONE), Optional.of(WINDOW), List.of("d2:1"), fact, PASSAGES_OF))
        .isEqualTo(lastPassage);
    // a fact of the opening has the opening's passage, without the message before: that is about
    // the long message as a whole
    assertThat(
            SourceContext.of(
                List.of(LONG_ONE),
                Optional.of(WINDOW),
                List.of("d2:1"),
                "On day 1 we talked about the deployment schedule",
                PASSAGES_OF))
        .isEqualTo(passages.get(0).text());

    // a short message is whole, as before
    assertThat(
            SourceContext.of(
                List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("d1:5"), FACT, PASSAGES_OF))
        .isEqualTo(
            SourceContext.of(
                List.of(QUESTION, ANSWER), Optional.of(WINDOW), List.of("d1:5"), FACT));
  }

  @Test
  void noPassageOfALongMessageFollowsTheMessageBeforeIt() {
    Message question = said("d2:0", "What did Ana tell you about her week?");
    List<Passage> passages = PASSAGES_OF.apply(LONG_ONE.content());
    List<Message> add = List.of(question, LONG_ONE);
    // a message stored verbatim as passages (raw): no passage takes the question as its context,
    // not even the first (the question is about the message as a whole, the passage holds a part
    // of it); each gets no context, so no context embedding either
    for (Passage later : passages) {
      SourceContext.Drawn drawn =
          SourceContext.draw(add, Optional.of(WINDOW), List.of("d2:1"), later.text(), PASSAGES_OF);
      assertThat(drawn.context()).isEmpty();
      assertThat(drawn.passage()).isEmpty();
    }
    // the same when the long message opens the add and the window's last message is before it
    assertThat(
            SourceContext.of(
                List.of(LONG_ONE),
                Optional.of(WINDOW),
                List.of("d2:1"),
                passages.get(passages.size() - 1).text(),
                PASSAGES_OF))
        .isEmpty();
    // a fact from a later passage keeps that passage, as its context and its context embedding
    SourceContext.Drawn fact =
        SourceContext.draw(
            add,
            Optional.of(WINDOW),
            List.of("d2:1"),
            "Ana has a beagle named Biscuit",
            PASSAGES_OF);
    assertThat(fact.context()).isEqualTo(passages.get(passages.size() - 1).text());
    assertThat(fact.passage()).contains(passages.get(passages.size() - 1).text());
  }
}
