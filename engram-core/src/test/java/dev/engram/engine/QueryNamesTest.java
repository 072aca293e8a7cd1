package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryNamesTest {

  @Test
  void capitalisedWordsInsideASentenceAreNames() {
    assertThat(QueryNames.of("What did Caroline say about Paris?")).containsExactly("caroline", "paris");
    assertThat(QueryNames.of("What is Caroline's job?")).containsExactly("caroline");
    assertThat(QueryNames.of("When did Caroline and caroline's friend meet CAROLINE?")).containsExactly("caroline");
    assertThat(QueryNames.of("Wo war Zoë in München?")).containsExactly("zoë", "münchen");
    assertThat(QueryNames.of("What LGBTQ+ events did Jean-Luc attend?")).containsExactly("lgbtq", "jean", "luc");
  }

  @Test
  void theWordThatOpensASentenceSaysNothing() {
    assertThat(QueryNames.of("Describe the trip")).isEmpty();
    assertThat(QueryNames.of("Caroline went where?")).isEmpty();
    assertThat(QueryNames.of("Where did she go? Ask Bob. \"Tell Ann\"")).containsExactly("bob", "ann");
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
  void storedTextsSplitAsQueriesDo() {
    Set<String> words = new HashSet<>();
    QueryNames.wordsOf("Caroline's friend Jean-Luc, from München", words);
    assertThat(words).contains("caroline", "s", "friend", "jean", "luc", "from", "münchen");
  }
}
