package dev.engram.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.text.CodeFences.Segment;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CodeFencesTest {

  private static String joined(List<Segment> segments) {
    return segments.stream().map(Segment::text).collect(Collectors.joining());
  }

  @Test
  void cutsATextIntoItsCodeBlocksAndTheProseBetween() {
    String text =
        "Here is the fix:\n```java\nint x = 1;\n```\nand the config:\n  ~~~~\nport: 8080\n  ~~~~\nDone.";

    List<Segment> segments = CodeFences.segments(text);

    assertThat(segments)
        .containsExactly(
            new Segment("Here is the fix:\n", false),
            new Segment("```java\nint x = 1;\n```", true),
            new Segment("\nand the config:\n", false),
            new Segment("  ~~~~\nport: 8080\n  ~~~~", true),
            new Segment("\nDone.", false));
    assertThat(joined(segments)).isEqualTo(text);
  }

  @Test
  void aBlockClosesOnlyOnItsOwnMarkAtLeastAsLongAndRunsToTheEndUnclosed() {
    String text = "Look:\n````\n```\n~~~~\n``` not a close\n````\nafter\n```\nnever closed\n";

    List<Segment> segments = CodeFences.segments(text);

    assertThat(segments)
        .containsExactly(
            new Segment("Look:\n", false),
            new Segment("````\n```\n~~~~\n``` not a close\n````", true),
            new Segment("\nafter\n", false),
            new Segment("```\nnever closed\n", true));
    assertThat(joined(segments)).isEqualTo(text);
  }

  @Test
  void proseAloneAndInlineCodeAreOneSegment() {
    assertThat(CodeFences.segments("Use `npm ci`, not ``npm i``.\nThanks"))
        .containsExactly(new Segment("Use `npm ci`, not ``npm i``.\nThanks", false));
    assertThat(CodeFences.segments("")).isEmpty();
  }

  @Test
  void opensOnThreeMarksAfterIndentation() {
    String line = "\t ```python";
    assertThat(CodeFences.opening(line, 0, line.length())).isEqualTo(3);
    assertThat(CodeFences.opening("``x", 0, 3)).isZero();
    assertThat(CodeFences.opening("a```", 0, 4)).isZero();
    assertThat(CodeFences.closes("  ```  ", 0, 7, '`', 3)).isTrue();
    assertThat(CodeFences.closes("```", 0, 3, '`', 4)).isFalse();
    assertThat(CodeFences.closes("~~~", 0, 3, '`', 3)).isFalse();
  }
}
