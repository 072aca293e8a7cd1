package dev.engram.examples.assistant;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example's smoke test: the assistant, over a real embedded memory (SQLite + Lucene, ONNX
 * embedder) in a data directory, is taught a fact, closed, and opened again on the same directory;
 * the second run's prompt to the model holds the fact. The model is the example's offline {@link
 * EchoChatModel} (no LLM can run here), recorded.
 */
class AssistantRemembersAcrossRestartsTest {
  @TempDir Path dataDir;

  /** The echo model, keeping every request it was sent. */
  static final class RecordedEchoModel implements ChatModel {
    final List<ChatRequest> requests = new ArrayList<>();
    private final EchoChatModel echo = new EchoChatModel();

    @Override
    public synchronized ChatResponse doChat(ChatRequest request) {
      requests.add(request);
      return echo.doChat(request);
    }

    String lastPrompt() {
      return requests.get(requests.size() - 1).messages().toString();
    }
  }

  @Test
  void aSecondRunRemembersWhatTheFirstRunWasToldWithTheEchoModel() {
    RecordedEchoModel first = new RecordedEchoModel();
    try (AssistantApp app = AssistantApp.open(dataDir, first)) {
      assertThat(app.chat("alice", "My dog is called Max")).isEqualTo("Got it.");
    } // closing waits until the exchange is remembered

    RecordedEchoModel second = new RecordedEchoModel();
    try (AssistantApp app = AssistantApp.open(dataDir, second)) {
      String answer = app.chat("alice", "What is my dog called?");
      assertThat(second.lastPrompt())
          .contains("What is my dog called?")
          .contains("My dog is called Max");
      assertThat(answer).isEqualTo("I remember:\nMy dog is called Max");

      assertThat(app.chat("bob", "What is my dog called?")).isEqualTo("Got it.");
      assertThat(second.lastPrompt()).doesNotContain("Max");
    }
  }
}
