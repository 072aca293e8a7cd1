package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SentenceSplitterTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "Hey Mel! Good to see you! How have you been?",
            List.of("Hey Mel!", "Good to see you!", "How have you been?")),
        Arguments.of(
            "Dr. Smith said hi. I went to see Mr. Jones e.g. yesterday.",
            List.of("Dr. Smith said hi.", "I went to see Mr. Jones e.g. yesterday.")),
        Arguments.of(
            "It cost 3.50 dollars!! Really?! Yes 😀 I did",
            List.of("It cost 3.50 dollars!!", "Really?!", "Yes 😀 I did")),
        Arguments.of(
            "I met J. K. Rowling at 5 p.m. It was fun.",
            List.of("I met J. K. Rowling at 5 p.m.", "It was fun.")),
        Arguments.of(
            "Line one\nLine two without punct\r\n\r\nLine three.",
            List.of("Line one", "Line two without punct", "Line three.")),
        Arguments.of("Third...  and more... Fourth.", List.of("Third... and more...", "Fourth.")),
        Arguments.of("I love it 😍😍 we went camping", List.of("I love it 😍😍 we went camping")),
        Arguments.of(
            "We flew to St. Louis last year. Loved it",
            List.of("We flew to St. Louis last year.", "Loved it")),
        Arguments.of(
            "She said \"Wow.\" Then she left.", List.of("She said \"Wow.\"", "Then she left.")),
        Arguments.of(
            "Pi is about 3.14159 i.e. a bit more than 3.",
            List.of("Pi is about 3.14159 i.e. a bit more than 3.")),
        Arguments.of(
            "The count is \\( \\frac{n!}{k_1! k_2! \\cdots k_r!} \\) for r kinds. Then divide.",
            List.of(
                "The count is \\( \\frac{n!}{k_1! k_2! \\cdots k_r!} \\) for r kinds.",
                "Then divide.")),
        Arguments.of(
            "So \\[ P = \\frac{10!}{8! 2!} \\] Done! Next one.",
            List.of("So \\[ P = \\frac{10!}{8! 2!} \\] Done!", "Next one.")),
        Arguments.of(
            "5C3 is 5! / (3! × (5-3)!) = 10, can you check? Thanks!",
            List.of("5C3 is 5! / (3! × (5-3)!) = 10, can you check?", "Thanks!")),
        Arguments.of(
            "P(5, 5) = 5! = 120. Well done on the last 5! **Next**: try 6.",
            List.of("P(5, 5) = 5! = 120.", "Well done on the last 5!", "**Next**: try 6.")),
        Arguments.of("Wow!That was close. Open it!", List.of("Wow!That was close.", "Open it!")),
        Arguments.of("   ", List.of()),
        Arguments.of("", List.of()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void splitsIntoSentences(String text, List<String> expected) {
    assertThat(SentenceSplitter.split(text)).containsExactlyElementsOf(expected);
  }

  /** A brace never closed holds a sentence open for a thousand characters, not a whole line. */
  @Test
  void aBraceNeverClosedDoesNotMakeALongLineOneSentence() {
    String line = "Set it to :{ for now. " + "The server restarts quickly. ".repeat(200);

    List<String> sentences = SentenceSplitter.split(line);

    assertThat(sentences.get(0)).startsWith("Set it to :{ for now.").hasSizeLessThan(1_100);
    assertThat(sentences.subList(1, sentences.size()))
        .hasSizeGreaterThan(150)
        .containsOnly("The server restarts quickly.");
  }
}
