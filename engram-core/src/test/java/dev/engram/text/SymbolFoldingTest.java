package dev.engram.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SymbolFoldingTest {

  /** Rows: the text, then what is embedded of it; '~' stands for a space in the expectation. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        // Markdown: emphasis, headings, bullets, code spans and tables read as their words
        "**Step 1:** install it | ~~Step 1~~~ install it",
        "### Components | ~~~~Components",
        "- Login | ~~Login",
        "run `app.py` now | run ~app.py~ now",
        "\"| a | b |\" | ~~a~~~b~~",
        // code and LaTeX keep their names and numbers
        "user.get_id() | user.get~id~~",
        "x = {'a': 1} | x~~~~~a~~~1~",
        "\\frac{3}{2} | ~frac~3~~2~",
        // a word's own punctuation stays
        "don't stop | don't stop",
        "Flask-Login 0.6.2 | Flask-Login 0.6.2",
        "C++ and C# at 50% for $20 | C++ and C# at 50% for $20",
        "the user’s app | the user’s app",
        // and a number's
        "1,000 users at 10:30 on 12/05 | 1,000 users at 10:30 on 12/05",
        "a/b and x:y | a~b and x~y",
        // a sentence's punctuation stays, and a spaced dash or ampersand
        "Hi, Mel! Ready? Yes: go; now. | Hi, Mel! Ready? Yes: go; now.",
        "kids & work - really | kids & work - really",
        "rewarding – it was | rewarding – it was",
        // what is not prose goes
        "wow!!! really... | wow~~~ really~~~",
        "(see above) | ~see above~",
        "a ++ b -- c | a ~~ b ~~ c",
        "5! / (3! × 2!) = 10 | 5!~~~~3!~~~2~~~~~10",
        // combining marks are part of their letters; letters of any script stay
        "cafe\u0301 ok | cafe\u0301 ok",
        "東京に行った | 東京に行った",
      })
  void readsSymbolsAsSpacesAndKeepsProsePunctuation(String text, String expected) {
    assertThat(SymbolFolding.fold(text)).isEqualTo(expected.replace('~', ' '));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"--------", "```", "/////", "(:"})
  void keepsATextOfSymbolsAlone(String text) {
    assertThat(SymbolFolding.fold(text)).isSameAs(text);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"plain words only", "I went to the support group on 3 May, 2023."})
  void returnsATextWithoutSymbolsUnchanged(String text) {
    assertThat(SymbolFolding.fold(text)).isSameAs(text);
  }
}
