package dev.engram.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryNamesTest {

  @Test
  void capitalisedWordsInsideASentenceAreNames() {
    assertThat(QueryNames.of("What did Caroline say about Paris?"))
        .containsExactly("caroline", "paris");
    assertThat(QueryNames.of("What is Caroline's job?")).containsExactly("caroline");
    assertThat(QueryNames.of("When did Caroline and caroline's friend meet CAROLINE?"))
        .containsExactly("caroline");
    assertThat(QueryNames.of("Wo war Zoë in München?")).containsExactly("zoë", "münchen");
    assertThat(QueryNames.of("What LGBTQ+ events did Jean-Luc attend?"))
        .containsExactly("lgbtq", "jean", "luc");
  }

  @Test
  void namesNotInCapitalsLeaveOutWordsWrittenInCapitalsThroughout() {
    String query = "What did Caroline say about the API? Mention ONLY GPT4 and Lgbtq, not LGBTQ.";
    assertThat(QueryNames.of(query)).containsExactly("caroline", "api", "only", "gpt4", "lgbtq");
    assertThat(QueryNames.notInCapitals(query)).containsExactly("caroline", "gpt4", "lgbtq");
    assertThat(QueryNames.notInCapitals("Mention ONLY three items about NASA")).isEmpty();
    assertThat(QueryAnalyzer.english().namesNotInCapitals(query))
        .containsExactly("caroline", "gpt4", "lgbtq");
  }

  @Test
  void theWordThatOpensASentenceSaysNothing() {
    assertThat(QueryNames.of("Describe the trip")).isEmpty();
    assertThat(QueryNames.of("Caroline went where?")).isEmpty();
    assertThat(QueryNames.of("Where did she go? Ask Bob. \"Tell Ann\""))
        .containsExactly("bob", "ann");
    assertThat(QueryNames.of("  (Where) did Max go?")).containsExactly("max");
  }

  @Test
  void lowerCaseQueriesMonthsWeekdaysTitlesAndPronounsNameNothing() {
    assertThat(QueryNames.of("what does alice do for a living")).isEmpty();
    assertThat(QueryNames.of("What did I do in May, on Friday and in December?")).isEmpty();
    assertThat(QueryNames.of("Did Mr Smith call Dr Who?")).containsExactly("smith", "who");
    assertThat(QueryNames.of("What's up? I'm fine")).isEmpty();
  }

  @Test
  void aStoredTextMentionsANameAsAWholeWordInAnyCase() {
    String text = "Caroline's friend JEAN-Luc, from München";
    assertThat(List.of("caroline", "jean", "luc", "münchen", "friend"))
        .allMatch(n -> QueryNames.mentions(text, n));
    assertThat(List.of("carol", "line", "lu", "frien", "zoe"))
        .noneMatch(n -> QueryNames.mentions(text, n));
    assertThat(QueryNames.mentions("", "zoe")).isFalse();
    assertThat(QueryNames.mentions("zoe", "zoe")).isTrue();
  }
}
