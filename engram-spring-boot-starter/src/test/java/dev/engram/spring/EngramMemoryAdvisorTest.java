package dev.engram.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;

/**
 * The advisor in a real Spring AI {@link ChatClient} with a scripted chat model over a real
 * embedded memory.
 */
class EngramMemoryAdvisorTest {
  @TempDir Path dir;
  Memory memory;
  EngramMemoryAdvisor advisor;

  @BeforeEach
  void open() {
    HashEmbedder embedder = new HashEmbedder();
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, embedder.dimension()))
            .embedder(embedder)
            .build();
    advisor = new EngramMemoryAdvisor(memory, 5, 200, false);
  }

  @AfterEach
  void close() {
    advisor.destroy();
    memory.close();
  }

  private static String ask(ChatClient chat, String user, String text) {
    return chat.prompt()
        .user(text)
        .advisors(a -> a.param(EngramMemoryAdvisor.USER_ID, user))
        .call()
        .content();
  }

  @Test
  void aLaterConversationsSystemPromptHoldsWhatAnEarlierOneTaught() {
    ScriptedChatModel model =
        new ScriptedChatModel("What a lovely dog!", "Your beagle is Max.", "No idea.");
    ChatClient chat =
        ChatClient.builder(model)
            .defaultSystem("You are a helpful assistant.")
            .defaultAdvisors(advisor)
            .build();

    assertThat(ask(chat, "alice", "My dog is a beagle called Max")).isEqualTo("What a lovely dog!");
    assertThat(advisor.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .containsExactlyInAnyOrder("My dog is a beagle called Max", "What a lovely dog!");

    assertThat(ask(chat, "alice", "What is my dog called?")).isEqualTo("Your beagle is Max.");
    String system = model.prompts.get(1).getSystemMessage().getText();
    assertThat(system)
        .startsWith("You are a helpful assistant.")
        .contains("What you remember about the user from earlier conversations:")
        .contains("- My dog is a beagle called Max");
    assertThat(model.prompts.get(1).getUserMessage().getText()).isEqualTo("What is my dog called?");

    assertThat(ask(chat, "bob", "What is my dog called?")).isEqualTo("No idea.");
    assertThat(model.prompts.get(2).getSystemMessage().getText())
        .isEqualTo("You are a helpful assistant.");
    assertThat(advisor.failures()).isZero();
  }

  @Test
  void aStreamedConversationIsRememberedAndAStreamedAnswerSeesEarlierMemories() {
    ScriptedChatModel model = new ScriptedChatModel("What a lovely dog!", "Your beagle is Max.");
    ChatClient chat =
        ChatClient.builder(model)
            .defaultSystem("You are a helpful assistant.")
            .defaultAdvisors(advisor)
            .build();

    List<String> chunks = stream(chat, "alice", "My dog is a beagle called Max");
    assertThat(chunks).containsExactly("What", " a", " lovely", " dog!");
    assertThat(advisor.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .containsExactlyInAnyOrder("My dog is a beagle called Max", "What a lovely dog!");

    assertThat(String.join("", stream(chat, "alice", "What is my dog called?")))
        .isEqualTo("Your beagle is Max.");
    assertThat(model.prompts.get(1).getSystemMessage().getText())
        .startsWith("You are a helpful assistant.")
        .contains("- My dog is a beagle called Max")
        .contains("- What a lovely dog!");
    assertThat(advisor.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .contains("What is my dog called?", "Your beagle is Max.");
    assertThat(advisor.failures()).isZero();
  }

  @Test
  void aStreamWithoutAScopePassesThroughUntouched() {
    ScriptedChatModel model = new ScriptedChatModel("Hello there");
    ChatClient chat =
        ChatClient.builder(model).defaultSystem("Be brief.").defaultAdvisors(advisor).build();

    assertThat(chat.prompt().user("Hi").stream().content().collectList().block())
        .containsExactly("Hello", " there");
    assertThat(advisor.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(model.prompts.get(0).getSystemMessage().getText()).isEqualTo("Be brief.");
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items()).isEmpty();
    assertThat(memory.status().recordSequence()).isZero();
  }

  private static List<String> stream(ChatClient chat, String user, String text) {
    return chat
        .prompt()
        .user(text)
        .advisors(a -> a.param(EngramMemoryAdvisor.USER_ID, user))
        .stream()
        .content()
        .collectList()
        .block(Duration.ofSeconds(30));
  }

  @Test
  void memoryFailuresDoNotBreakTheChat() {
    ScriptedChatModel model = new ScriptedChatModel("Hello!");
    ChatClient chat = ChatClient.builder(model).defaultAdvisors(advisor).build();
    memory.close();

    assertThat(ask(chat, "alice", "Hi, I live in Porto")).isEqualTo("Hello!");

    assertThat(advisor.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(advisor.failures()).isEqualTo(2); // the search before the call and the add after it
    assertThat(model.prompts.get(0).getUserMessage().getText()).isEqualTo("Hi, I live in Porto");
  }

  @Test
  void memoryFailuresDoNotBreakAStream() {
    ScriptedChatModel model = new ScriptedChatModel("Hello Alice!");
    ChatClient chat = ChatClient.builder(model).defaultAdvisors(advisor).build();
    memory.close();

    assertThat(stream(chat, "alice", "Hi, I live in Porto")).containsExactly("Hello", " Alice!");

    assertThat(advisor.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(advisor.failures()).isEqualTo(2);
  }
}
