package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Hashes;
import dev.engram.MemoryItem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EmbeddingTextsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "I went to the support group | Caroline | Caroline: I went to the support group",
        "Caroline went to the support group | Caroline | Caroline went to the support group",
        "caroline's sister called | Caroline | caroline's sister called",
        "I went to the support group | NULL | I went to the support group",
      })
  void prefixesTheSpeakerOnlyWhenTheTextDoesNotNameThem(
      String text, String actor, String expected) {
    assertThat(EmbeddingTexts.of(item(text, Map.of(), actor))).isEqualTo(expected);
  }

  @Test
  void embedsAPassageOfALongMessageWithItsSymbolsReadAsSpacesAndAWholeMessageAsWritten() {
    String text = "**Step 1:** run `app.py`";
    Map<String, Object> passage =
        Map.of(
            MemoryItem.PASSAGE_START, 0, MemoryItem.PASSAGE_END, 24, MemoryItem.PASSAGE_COUNT, 3);
    assertThat(EmbeddingTexts.of(item(text, passage, "assistant")))
        .isEqualTo("assistant:   Step 1    run  app.py ");
    assertThat(EmbeddingTexts.of(item(text, Map.of(), "assistant")))
        .isEqualTo("assistant: **Step 1:** run `app.py`");
  }

  private static MemoryItem item(String text, Map<String, Object> metadata, String actor) {
    Instant t = Instant.parse("2024-01-01T00:00:00Z");
    return new MemoryItem(
        "id",
        text,
        Hashes.md5(text),
        metadata,
        "u",
        null,
        null,
        actor,
        null,
        t,
        t,
        null,
        List.of(),
        null);
  }
}
