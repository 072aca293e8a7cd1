package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.extract.CodeBlocks.Segment;
import org.junit.jupiter.api.Test;

class CodeBlocksTest {

  @Test
  void separatesFencedBlocksFromProse() {
    String text =
        "Install the client first.\n\n```bash\npip install httpx==0.27\n```\n"
            + "Then call it:\n~~~\nhttpx.get(url)\n~~~\nDone.";

    assertThat(CodeBlocks.split(text))
        .containsExactly(
            new Segment("Install the client first.", false),
            new Segment("```bash\npip install httpx==0.27\n```", true),
            new Segment("Then call it:", false),
            new Segment("~~~\nhttpx.get(url)\n~~~", true),
            new Segment("Done.", false));
  }

  @Test
  void anUnclosedFenceRunsToTheEnd() {
    assertThat(CodeBlocks.split("See below.\n```sql\nSELECT 1;\nSELECT 2;"))
        .containsExactly(
            new Segment("See below.", false), new Segment("```sql\nSELECT 1;\nSELECT 2;", true));
  }

  @Test
  void textWithoutFencesIsOneProseSegment() {
    assertThat(CodeBlocks.split("I moved to Porto.\nI start on Monday."))
        .containsExactly(new Segment("I moved to Porto.\nI start on Monday.", false));
    assertThat(CodeBlocks.split("  \n")).isEmpty();
  }
}
