package dev.engram.examples.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The example's smoke test: the application, with the starter's real embedded memory (SQLite +
 * Lucene, ONNX embedder) in a data directory, is taught a fact, its context closed, and started
 * again on the same directory; the second run's prompt to the model holds the fact. The model is
 * the example's offline {@link EchoChatModel} (no LLM can run here), recorded.
 */
class ChatRemembersAcrossRestartsTest {
  @TempDir Path dataDir;

  /** The echo model, keeping every prompt it was sent. */
  static final class RecordedEchoModel implements ChatModel {
    final List<Prompt> prompts = new ArrayList<>();
    private final EchoChatModel echo = new EchoChatModel();

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
      prompts.add(prompt);
      return echo.call(prompt);
    }

    String lastSystemPrompt() {
      return prompts.get(prompts.size() - 1).getSystemMessage().getText();
    }
  }

  private ConfigurableApplicationContext start(RecordedEchoModel model) {
    return new SpringApplicationBuilder(ChatApplication.class)
        .initializers(ctx -> ctx.getBeanFactory().registerSingleton("recordedEchoModel", model))
        .run("--engram.data-dir=" + dataDir, "--chat.model=recorded");
  }

  @Test
  void aSecondRunRemembersWhatTheFirstRunWasToldWithTheEchoModel() {
    RecordedEchoModel first = new RecordedEchoModel();
    try (ConfigurableApplicationContext app = start(first)) {
      assertThat(app.getBean(Chat.class).ask("alice", "My dog is called Max")).isEqualTo("Got it.");
    } // closing the context waits until the exchange is remembered

    RecordedEchoModel second = new RecordedEchoModel();
    try (ConfigurableApplicationContext app = start(second)) {
      Chat chat = app.getBean(Chat.class);
      String answer = chat.ask("alice", "What is my dog called?");
      assertThat(second.lastSystemPrompt())
          .startsWith("You are a friendly personal assistant.")
          .contains("- My dog is called Max");
      assertThat(second.prompts.get(0).getUserMessage().getText())
          .isEqualTo("What is my dog called?");
      assertThat(answer).startsWith("I remember:\n").contains("- My dog is called Max");

      assertThat(chat.ask("bob", "What is my dog called?")).isEqualTo("Got it.");
      assertThat(second.lastSystemPrompt()).doesNotContain("Max");
    }
  }
}
