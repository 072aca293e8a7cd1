package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonAnswersTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"facts\": [\"a\"]}",
        "```json\n{\"facts\": [\"a\"]}\n```",
        "<think>I should say {facts} here</think>\n{\"facts\": [\"a\"]}",
        "Sure! Here is the JSON you asked for: {\"facts\": [\"a\"]} Hope it helps.",
        "{\"facts\": [\"a\"]}<|eot_id|>",
        "{not json} then {\"facts\": [\"a\"]}",
      })
  void findsTheJsonInChattyAnswers(String answer) {
    assertThat(JsonAnswers.firstObject(answer, "step").get("facts").get(0).asText()).isEqualTo("a");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "no json here", "{\"facts\": [\"a\", ", "```json\n{\"facts\": [\"trunc"})
  void rejectsAnswersWithoutACompleteObject(String answer) {
    assertThatThrownBy(() -> JsonAnswers.firstObject(answer, "fact extraction"))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.INVALID_RESPONSE))
        .hasMessageStartingWith("fact extraction: ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"facts\": [\"brace } inside \\\" string\"]}"})
  void bracesInsideStringsDoNotConfuseTheMatcher(String answer) {
    assertThat(JsonAnswers.firstObject(answer, "s").get("facts").get(0).asText())
        .isEqualTo("brace } inside \" string");
  }
}
