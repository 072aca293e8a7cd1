package dev.engram.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link QueryAnalyzer#subjectWords} of the English analyzer: {@link DialogueWords} left out. */
class DialogueWordsTest {
  private static final QueryAnalyzer ENGLISH = QueryAnalyzer.english();

  /** The subject words of {@code query}, punctuation dropped and spaces collapsed. */
  private static String subject(String query) {
    return ENGLISH
        .subjectWords(query)
        .replaceAll("[^\\p{L}\\p{N}' ]", " ")
        .replaceAll("\\s+", " ")
        .strip();
  }

  @Test
  void wordsAboutTheConversationAndTheAnswersFormAreLeftOut() {
    assertThat(
            subject(
                "Can you walk me through the order in which I brought up different aspects of my"
                    + " app development across our conversations? Mention ONLY and ONLY five"
                    + " items."))
        .isEqualTo(
            "you walk me through the in I up different aspects of my app development across our"
                + " and five");
    assertThat(subject("What did I tell you earlier about my deadline?"))
        .isEqualTo("I you about my deadline");
  }

  @Test
  void theKeywordsKeepThem() {
    // the keyword signal still searches by every word but the question words
    assertThat(ENGLISH.keywords("What did I mention about the deadline?").strip())
        .isEqualTo("I mention about the deadline?");
  }

  @Test
  void aWordWrittenAsANameStays() {
    assertThat(subject("Did I say that Order of Malta pays?"))
        .isEqualTo("I that Order of Malta pays");
  }

  @Test
  void aQueryWithNoWordAboutItsSubjectHasNone() {
    assertThat(subject("What did we discuss?")).isEqualTo("we");
    assertThat(ENGLISH.subjectWords("What was discussed?")).isEmpty();
    assertThat(ENGLISH.subjectWords("")).isEmpty();
  }

  @Test
  void anotherAnalyzerReadsItsKeywordsUnlessItSaysOtherwise() {
    QueryAnalyzer plain =
        new QueryAnalyzer() {
          @Override
          public String keywords(String query) {
            return query;
          }

          @Override
          public java.util.List<String> names(String query) {
            return java.util.List.of();
          }

          @Override
          public boolean mentions(String text, String name) {
            return false;
          }

          @Override
          public java.util.List<Period> periods(String query, java.time.Clock clock) {
            return java.util.List.of();
          }
        };
    assertThat(plain.subjectWords("What did I mention?")).isEqualTo("What did I mention?");
  }
}
