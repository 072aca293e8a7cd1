package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.analysis.QueryAnalyzer;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link GeneralQuestions}: fifty distinct questions that name no one. */
class GeneralQuestionsTest {
  @Test
  void fiftyDistinctQuestionsThatNameNoOne() {
    List<String> questions = GeneralQuestions.all();
    assertThat(questions).hasSize(50);
    assertThat(new HashSet<>(questions)).hasSize(50);
    QueryAnalyzer analyzer = QueryAnalyzer.english();
    for (String q : questions) {
      assertThat(q).endsWith("?");
      assertThat(analyzer.names(q)).as(q).isEmpty();
      // no capitalised word but the first and the pronoun "I": no name, place or brand
      assertThat(q.substring(1)).as(q).doesNotContainPattern("\\b(?!I\\b)\\p{Lu}");
    }
  }
}
