package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The NLTK word_tokenize approximation, rule by rule, on lower-cased English. */
class WordTokenizerTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // n't is split off the verb, the final period of the sentence becomes a token
        Arguments.of("i don't know.", List.of("i", "do", "n't", "know", ".")),
        // 's is a clitic; can't becomes ca + n't
        Arguments.of(
            "caroline's dog can't swim", List.of("caroline", "'s", "dog", "ca", "n't", "swim")),
        // a period after an ordinary word ends a sentence, so both sentence-final periods are
        // tokens
        Arguments.of(
            "she went home. then she slept.",
            List.of("she", "went", "home", ".", "then", "she", "slept", ".")),
        // a known abbreviation does not end a sentence and keeps its period
        Arguments.of("mr. smith arrived.", List.of("mr.", "smith", "arrived", ".")),
        Arguments.of(
            "it happened at 5 p.m. on 7 may 2023.",
            List.of("it", "happened", "at", "5", "p.m.", "on", "7", "may", "2023", ".")),
        // a number followed by a lower-case word does not end a sentence (Punkt's orthographic
        // heuristic)
        Arguments.of(
            "we met in 2019. it was fun", List.of("we", "met", "in", "2019.", "it", "was", "fun")),
        // commas before a non-digit, brackets and ! are split; a comma inside a number is not
        Arguments.of(
            "a painting, a sculpture (clay)!",
            List.of("a", "painting", ",", "a", "sculpture", "(", "clay", ")", "!")),
        Arguments.of("i paid $3,000: cash", List.of("i", "paid", "$", "3,000", ":", "cash")),
        // double quotes become `` and ''
        Arguments.of("\"hello\" she said", List.of("``", "hello", "''", "she", "said")),
        // 'm clitic and the MacIntyre contractions gonna and cannot
        Arguments.of(
            "i'm gonna go, cannot wait",
            List.of("i", "'m", "gon", "na", "go", ",", "can", "not", "wait")),
        // an ellipsis is one token and does not end the sentence; ? is split
        Arguments.of("wait... what?", List.of("wait", "...", "what", "?")),
        // a quote before a one-letter word is split off (3.9 rule), a closing quote before a space
        // too
        Arguments.of("the 'a' team", List.of("the", "'", "a", "'", "team")),
        // typographic quotes are padded
        Arguments.of("“quoted” text", List.of("“", "quoted", "”", "text")),
        Arguments.of("", List.of()),
        Arguments.of("   ", List.of()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void tokenizesLikeNltkWordTokenize(String text, List<String> expected) {
    assertThat(WordTokenizer.tokenize(text)).containsExactlyElementsOf(expected);
  }

  @Test
  void lowercasesFirstAsTheMem0HarnessDoes() {
    assertThat(WordTokenizer.tokenizeLowercased("Paris.")).containsExactly("paris", ".");
    assertThat(WordTokenizer.tokenizeLowercased("I Didn't")).containsExactly("i", "did", "n't");
  }

  @Test
  void splitsSentencesAtPeriodsQuestionAndExclamationMarks() {
    assertThat(WordTokenizer.sentences("yes! really? fine. mr. x left"))
        .containsExactly("yes!", "really?", "fine.", "mr. x left");
  }
}
