package dev.engram.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.TokenCounter;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PassagesTest {
  private static final TokenCounter CL100K = TokenCounter.cl100k();

  @Test
  void aTextWithinTheLimitIsOnePassageCoveringIt() {
    String text = "  Alice adopted a beagle called Biscuit.\n\nShe walks him every morning.  \n";
    List<Passage> passages = Passages.split(text, 100, CL100K);
    assertThat(passages).hasSize(1);
    Passage only = passages.get(0);
    assertThat(only.text())
        .isEqualTo("Alice adopted a beagle called Biscuit.\n\nShe walks him every morning.");
    assertThat(text.substring(only.start(), only.end())).isEqualTo(only.text());
  }

  @Test
  void aBlankTextHasNoPassages() {
    assertThat(Passages.split("", 10, CL100K)).isEmpty();
    assertThat(Passages.split(" \n\t\n ", 10, CL100K)).isEmpty();
  }

  @Test
  void argumentsAreValidated() {
    assertThatThrownBy(() -> Passages.split("text", 0, CL100K))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxTokens")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> Passages.split(null, 10, CL100K))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Passages.split("text", 10, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Passage(3, 2, "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Passage(0, 2, "abc")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cutsAtParagraphBreaksFirst() {
    String first = sentences("The first paragraph talks about gardening", 6);
    String second = sentences("The second paragraph talks about sailing", 6);
    String third = sentences("The third paragraph talks about cooking", 3);
    String text = first + "\n\n" + second + "\n\n" + third;
    int limit = CL100K.count(first + "\n\n" + second) - 1;
    List<Passage> passages = Passages.split(text, limit, CL100K);
    assertValid(text, passages, limit);
    assertThat(passages).extracting(Passage::text).containsExactly(first, second + "\n\n" + third);
  }

  @Test
  void aCodeBlockIsKeptWhole() {
    String intro = sentences("Here is how the service starts", 4);
    String code =
        "```java\n"
            + "public final class Server {\n"
            + "  public static void main(String[] args) {\n"
            + "    System.out.println(\"listening on port 8080\");\n"
            + "\n"
            + "    new Server().start();\n"
            + "  }\n"
            + "}\n"
            + "```";
    String outro = sentences("After that the health check answers", 4);
    String text = intro + "\n" + code + "\n" + outro;
    int limit = CL100K.count(code) + 2;
    assertThat(CL100K.count(text)).isGreaterThan(limit);
    List<Passage> passages = Passages.split(text, limit, CL100K);
    assertValid(text, passages, limit);
    assertThat(passages).anySatisfy(p -> assertThat(p.text()).contains(code));
  }

  @Test
  void aCodeBlockLongerThanTheLimitIsCutAtItsLines() {
    StringBuilder code = new StringBuilder("```python\n");
    for (int i = 0; i < 40; i++) {
      code.append("value_").append(i).append(" = compute(").append(i).append(")\n");
    }
    code.append("```");
    String text = "Intro line.\n" + code;
    List<Passage> passages = Passages.split(text, 30, CL100K);
    assertValid(text, passages, 30);
    assertThat(passages).hasSizeGreaterThan(2);
    for (Passage passage : passages) {
      // every cut falls at a line break: each passage ends a line of the text
      assertThat(passage.end() == text.length() || text.charAt(passage.end()) == '\n').isTrue();
    }
  }

  @Test
  void listItemsAreKeptWhole() {
    String item1 =
        "- Install the database driver and check that the version is at least 3.45,\n"
            + "  because older versions lack the JSON functions the migration uses.";
    String item2 =
        "* Run the migration script against a copy of production first,\n"
            + "  then compare the row counts of every table before and after.";
    String item3 =
        "1. Schedule the switch for a quiet hour and tell the support team\n"
            + "   which customers may see a short pause in their dashboards.";
    String item4 = "+ Keep the old database for a week.";
    String text = "The plan:\n" + item1 + "\n" + item2 + "\n" + item3 + "\n" + item4;
    int limit = 40;
    assertThat(CL100K.count(item1)).isLessThanOrEqualTo(limit);
    assertThat(CL100K.count(item1 + "\n" + item2)).isGreaterThan(limit);
    List<Passage> passages = Passages.split(text, limit, CL100K);
    assertValid(text, passages, limit);
    for (String item : List.of(item1, item2, item3, item4)) {
      assertThat(passages).anySatisfy(p -> assertThat(p.text()).contains(item));
    }
  }

  @Test
  void aLongLineIsCutAtSentenceEnds() {
    String text = sentences("Engram keeps the memories of an agent", 40);
    List<Passage> passages = Passages.split(text, 50, CL100K);
    assertValid(text, passages, 50);
    assertThat(passages).hasSizeGreaterThan(3);
    for (Passage passage : passages) {
      assertThat(passage.text()).endsWith(".");
    }
  }

  @Test
  void aLongSentenceIsCutBetweenWordsAndAWordBetweenCharacters() {
    String words = String.join(" ", java.util.Collections.nCopies(300, "memory"));
    List<Passage> byWords = Passages.split(words, 25, CL100K);
    assertValid(words, byWords, 25);
    assertThat(byWords).allSatisfy(p -> assertThat(p.text()).matches("memory( memory)*"));
    // packed close to the limit, not one word a passage
    assertThat(byWords.size()).isLessThan(300 / 20 + 2);

    String blob = "aZ9x".repeat(2_000);
    List<Passage> byCharacters = Passages.split(blob, 40, CL100K);
    assertValid(blob, byCharacters, 40);
    assertThat(byCharacters.size()).isGreaterThan(10);
  }

  @Test
  void offsetsRoundTrip() {
    String text =
        "# Notes\n\n"
            + sentences("We chose PostgreSQL for the event store", 12)
            + "\n\n- one item\n- two items\n\n```\ncode();\n```\n\n"
            + sentences("Then the team moved to Lisbon in May", 12)
            + "\n";
    List<Passage> passages = Passages.split(text, 30, CL100K);
    assertValid(text, passages, 30);
    for (Passage passage : passages) {
      assertThat(text.substring(passage.start(), passage.end())).isEqualTo(passage.text());
      assertThat(passage.length()).isEqualTo(passage.text().length());
    }
  }

  @Test
  void surrogatePairsAndCombiningMarksAreNeverCutInHalf() {
    // no whitespace at all: the cut falls between characters
    String emoji = "😀🎉👍🏽e\u0301🇵🇹".repeat(300);
    for (int limit : new int[] {1, 2, 5, 17}) {
      List<Passage> passages = Passages.split(emoji, limit, CL100K);
      assertCovers(emoji, passages);
      for (Passage passage : passages) {
        assertThat(Character.isLowSurrogate(emoji.charAt(passage.start()))).isFalse();
        assertThat(Character.isHighSurrogate(emoji.charAt(passage.end() - 1))).isFalse();
        if (passage.end() < emoji.length()) {
          int next = emoji.codePointAt(passage.end());
          assertThat(Character.getType(next)).isNotEqualTo((int) Character.NON_SPACING_MARK);
          assertThat(next >= 0x1F3FB && next <= 0x1F3FF).isFalse();
        }
      }
    }
  }

  @Test
  void aVeryLongTextSplitsCountingEachCharacterABoundedNumberOfTimes() {
    StringBuilder builder = new StringBuilder();
    int paragraph = 0;
    while (builder.length() < 350_000) {
      builder.append(sentences("Paragraph " + paragraph + " discusses the deployment", 5));
      builder.append(paragraph % 7 == 0 ? "\n```\nrun --fast\n```\n" : "\n");
      builder.append(paragraph % 11 == 0 ? "- an item\n- another item\n\n" : "\n");
      paragraph++;
    }
    builder.append("x".repeat(20_000)); // one huge word at the end
    String text = builder.toString();
    AtomicLong charactersCounted = new AtomicLong();
    TokenCounter counting =
        t -> {
          charactersCounted.addAndGet(t.length());
          return CL100K.count(t);
        };
    List<Passage> passages = Passages.split(text, 400, counting);
    assertValid(text, passages, 400);
    // linear: each level of the cut reads the text a bounded number of times
    assertThat(charactersCounted.get()).isLessThan(12L * text.length());
  }

  private static String sentences(String subject, int n) {
    StringBuilder builder = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        builder.append(' ');
      }
      builder.append(subject).append(" in sentence number ").append(i).append('.');
    }
    return builder.toString();
  }

  private static void assertValid(String text, List<Passage> passages, int limit) {
    assertCovers(text, passages);
    for (Passage passage : passages) {
      assertThat(CL100K.count(passage.text())).isLessThanOrEqualTo(limit);
    }
  }

  /** In order, not overlapping, trimmed, covering every non-whitespace character. */
  private static void assertCovers(String text, List<Passage> passages) {
    int previousEnd = 0;
    for (Passage passage : passages) {
      assertThat(passage.start()).isGreaterThanOrEqualTo(previousEnd);
      assertThat(text.substring(passage.start(), passage.end())).isEqualTo(passage.text());
      assertThat(passage.text()).isNotBlank().isEqualTo(passage.text().strip());
      assertThat(text.substring(previousEnd, passage.start())).isBlank();
      previousEnd = passage.end();
    }
    assertThat(text.substring(previousEnd)).isBlank();
  }
}
