package dev.engram.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionWordsTest {

  /** What {@link QuestionWords#strip} keeps, its spaces collapsed. */
  private static String kept(String query) {
    return QuestionWords.strip(query).replaceAll("\\s+", " ").strip();
  }

  @Test
  void interrogativesAndAuxiliariesAreLeftOut() {
    assertThat(kept("When did Melanie paint a sunrise?")).isEqualTo("Melanie paint a sunrise?");
    assertThat(kept("What does Melanie do to destress?")).isEqualTo("Melanie to destress?");
    assertThat(kept("Would Caroline still want to pursue counseling?"))
        .isEqualTo("Caroline still want to pursue counseling?");
    assertThat(kept("who's the new coach, and where has he been?"))
        .isEqualTo("the new coach, and he ?");
  }

  @Test
  void wordsAreMatchedWholeAndInAnyCase() {
    assertThat(kept("WHAT DID the doers do with Whatever?")).isEqualTo("the doers with Whatever?");
    assertThat(kept("How’s the bakery doing?")).isEqualTo("the bakery ?");
  }

  @Test
  void aCapitalisedWordInsideASentenceIsANameAndStays() {
    assertThat(kept("What did Jon do in May 2023?")).isEqualTo("Jon in May 2023?");
    assertThat(kept("Where did Will go?")).isEqualTo("Will go?");
    assertThat(kept("May I ask what Ada bakes?")).isEqualTo("I ask Ada bakes?");
  }

  @Test
  void negationsAndContentWordsStay() {
    assertThat(kept("Why didn't Ada bake bread?")).isEqualTo("didn't Ada bake bread?");
    assertThat(QuestionWords.strip("Ada's favourite cake")).isEqualTo("Ada's favourite cake");
  }

  @Test
  void aQueryOfQuestionWordsAloneIsKept() {
    assertThat(QuestionWords.strip("Who was?")).isEqualTo("Who was?");
    assertThat(QuestionWords.strip("how?")).isEqualTo("how?");
    assertThat(QuestionWords.strip("")).isEmpty();
    assertThat(kept("What was it?")).isEqualTo("it?");
  }
}
