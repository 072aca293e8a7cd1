package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.InMemorySearchIndex;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link UnknownNames} on the in-memory reference index: which names it knows from the first
 * candidates, the scope and the index, and when it never cuts. (The step through the engine, on
 * every backend: {@code RankingStepsTest}.)
 */
class UnknownNamesTest {
  private static final QueryAnalyzer ENGLISH = QueryAnalyzer.english();
  private static final Scope SCOPE = Scope.user("u-17");
  private static final IndexQuery QUERY =
      new IndexQuery("t", SCOPE, Filter.all(), false, LocalDate.of(2024, 5, 1));
  private static final double LOW = UnknownNames.CLOSE - 0.01;

  private final InMemorySearchIndex index = new InMemorySearchIndex();
  private int made;

  private StoredMemory memory(String text, String speaker, String context) {
    Instant t = Instant.parse("2024-05-01T10:00:00Z").plusSeconds(made++);
    MemoryItem item =
        new MemoryItem(
            "m" + made,
            text,
            Hashes.md5(text),
            Map.of(),
            "u-17",
            null,
            null,
            speaker,
            Role.USER,
            t,
            t,
            null,
            List.of(),
            null);
    StoredMemory m = new StoredMemory("t", item, new float[] {1, 0}, context);
    index.apply(List.of(new IndexOp.Upsert(m)), made, 1);
    return m;
  }

  @Test
  void aNameNoMemoryMentionsIsUnknownUnlessAMemoryIsClose() {
    StoredMemory first = memory("Caroline adopted a puppy", "Caroline", "");
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "What did Bob adopt?", LOW, List.of(first)))
        .isTrue();
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "What did Bob adopt?", UnknownNames.CLOSE, List.of(first)))
        .isFalse();
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "What did Caroline adopt?", LOW, List.of(first)))
        .isFalse();
    // one known name keeps the search, whatever else the query names; with two unknown names it is
    // cut
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "Did Caroline adopt it in Paris?", LOW, List.of(first)))
        .isFalse();
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "Did Bob adopt it in Paris?", LOW, List.of(first)))
        .isTrue();
    // a query without names, or in lower case, is never cut
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "what did bob adopt", LOW, List.of(first)))
        .isFalse();
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "Where is the puppy?", LOW, List.of(first)))
        .isFalse();
  }

  @Test
  void aQueryNamesSomethingKnownWhenOneOfItsNamesIsKnownWhateverTheSpeakers() {
    StoredMemory first = memory("adopted a puppy", "Caroline", "");
    StoredMemory unspoken = memory("Zoe works as a nurse", null, "");
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH, index, QUERY, "Did Caroline adopt it in Paris?", List.of(first)))
        .isTrue();
    // a candidate without a speaker does not matter here (the cut would give up): the name is
    // known or it is not, here from the index
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH, index, QUERY, "Where does Zoe work?", List.of(unspoken, first)))
        .isTrue();
    assertThat(
            UnknownNames.cut(ENGLISH, index, QUERY, "What did Bob adopt?", LOW, List.of(unspoken)))
        .isFalse();
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH, index, QUERY, "What did Bob adopt?", List.of(first)))
        .isFalse();
    // a query that names no one names nothing known
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH, index, QUERY, "How do I bake sourdough bread?", List.of(first)))
        .isFalse();
  }

  @Test
  void aWordInCapitalsThroughoutDoesNotShowTheQueryIsAboutSomethingKnown() {
    StoredMemory first =
        memory("Caroline only adopts puppies and uses the API daily", "Caroline", "");
    // "ONLY" is emphasis, "API" may be an acronym: both are words of the memory, neither vouches
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH,
                index,
                QUERY,
                "List what I said about triangles. Mention ONLY three items.",
                List.of(first)))
        .isFalse();
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH, index, QUERY, "How often do I call the API?", List.of(first)))
        .isFalse();
    // a name written as a name still does, beside capitals
    assertThat(
            UnknownNames.namesSomethingKnown(
                ENGLISH, index, QUERY, "Does Caroline use the API ONLY daily?", List.of(first)))
        .isTrue();
    // and for the names rule a word in capitals is still a name the store knows
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "How often do I call the API?", LOW, List.of(first)))
        .isFalse();
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "How often do I call the SDK?", LOW, List.of(first)))
        .isTrue();
  }

  @Test
  void namesAreKnownFromTheCandidatesSpeakersAndContextsTheScopeAndTheIndex() {
    StoredMemory first = memory("adopted a puppy", "Caroline", "Melanie asked about pets");
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "What did Caroline adopt?", LOW, List.of(first)))
        .isFalse();
    assertThat(
            UnknownNames.cut(ENGLISH, index, QUERY, "What did Melanie ask?", LOW, List.of(first)))
        .isFalse();
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "What does U-17 like?", LOW, List.of(first)))
        .isFalse();
    // known only to the index: in a text, then in a context, of memories that are not among the
    // first candidates
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "Where does Zoe live?", LOW, List.of(first)))
        .isTrue();
    memory("Zoe moved to Lisbon", "Caroline", "");
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "Where does Zoe live?", LOW, List.of(first)))
        .isFalse();
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "Where does Ann live?", LOW, List.of(first)))
        .isTrue();
    memory("it went well", "Caroline", "Ann told us about her move");
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "Where does Ann live?", LOW, List.of(first)))
        .isFalse();
    // the index is searched within the query's reach: another scope's memories do not make a name
    // known
    IndexQuery other =
        new IndexQuery("t", Scope.user("u-18"), Filter.all(), false, LocalDate.of(2024, 5, 1));
    assertThat(UnknownNames.cut(ENGLISH, index, other, "Where does Zoe live?", LOW, List.of(first)))
        .isTrue();
  }

  @Test
  void aCandidateWithoutASpeakerMayBeAboutAnyoneSoNothingIsCut() {
    StoredMemory named = memory("Caroline adopted a puppy", "Caroline", "");
    StoredMemory unnamed = memory("Works as a nurse", null, "");
    assertThat(
            UnknownNames.cut(ENGLISH, index, QUERY, "Where does Alice work?", LOW, List.of(named)))
        .isTrue();
    assertThat(
            UnknownNames.cut(
                ENGLISH, index, QUERY, "Where does Alice work?", LOW, List.of(named, unnamed)))
        .isFalse();
    assertThat(UnknownNames.cut(ENGLISH, index, QUERY, "Where does Alice work?", LOW, List.of()))
        .isFalse();
  }
}
