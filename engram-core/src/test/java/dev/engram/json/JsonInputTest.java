package dev.engram.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonInputTest {

  @Test
  void metadataKeepsOrderAndJsonTypes() {
    Map<String, Object> m =
        JsonInput.metadata(
            "metadata",
            "{\"topic\":\"travel\",\"n\":3,\"big\":12345678901,\"x\":1.5,\"ok\":true,\"tags\":[\"a\"],"
                + "\"nested\":{\"k\":null}}");
    assertThat(m.keySet()).containsExactly("topic", "n", "big", "x", "ok", "tags", "nested");
    assertThat(m)
        .containsEntry("topic", "travel")
        .containsEntry("n", 3)
        .containsEntry("big", 12345678901L)
        .containsEntry("x", 1.5)
        .containsEntry("ok", true)
        .containsEntry("tags", List.of("a"));
    assertThat(m.get("nested")).isEqualTo(Collections.singletonMap("k", null));
  }

  @Test
  void metadataMustBeOneJsonObject() {
    assertThatThrownBy(() -> JsonInput.metadata("metadata", "[1,2]"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("metadata: must be a JSON object, got array");
    assertThatThrownBy(() -> JsonInput.metadata("metadata", "{\"a\":1} {\"b\":2}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("metadata: malformed JSON: ");
    assertThatThrownBy(() -> JsonInput.metadata("metadata", "{topic: travel}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("metadata: malformed JSON: ");
    assertThatThrownBy(() -> JsonInput.metadata("metadata", " "))
        .isInstanceOf(ValidationException.class)
        .hasMessage("metadata: must not be empty");
  }

  @Test
  void instantsAcceptInstantsOffsetsLocalTimesAndDates() {
    assertThat(JsonInput.instant("t", "2024-05-01T10:00:00Z"))
        .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(JsonInput.instant("t", "2024-05-01T12:00:00+02:00"))
        .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(JsonInput.instant("t", "2024-05-01T10:00"))
        .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(JsonInput.instant("t", " 2024-05-01 "))
        .isEqualTo(Instant.parse("2024-05-01T00:00:00Z"));
    assertThatThrownBy(() -> JsonInput.instant("timestamp", "May 1st"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "timestamp: 'May 1st' is not an ISO-8601 date or date-time"
                + " (for example 2024-05-01T10:00:00Z or 2024-05-01)");
  }

  @Test
  void datesAreIsoLocalDates() {
    assertThat(JsonInput.date("expires", "2025-01-01")).isEqualTo(LocalDate.of(2025, 1, 1));
    assertThatThrownBy(() -> JsonInput.date("expires", "2025-13-01"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("expires: '2025-13-01' is not an ISO-8601 date (for example 2025-01-01)");
  }
}
