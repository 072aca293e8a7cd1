package dev.engram.langchain4j.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.testing.HashEmbedder;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LangChain4j integration as an application uses it: an {@link AiServices} assistant with a
 * scripted chat model (no LLM can run here) over a real embedded Engram memory (SQLite + Lucene,
 * hash embedder).
 */
class EngramAiServicesTest {
  interface Assistant {
    String chat(@MemoryId String userId, @dev.langchain4j.service.UserMessage String text);
  }

  @TempDir Path dir;
  Memory memory;
  EngramChatMemoryStore store;

  @BeforeEach
  void open() {
    HashEmbedder embedder = new HashEmbedder();
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, embedder.dimension()))
            .embedder(embedder)
            .build();
    store = EngramChatMemoryStore.builder(memory).infer(false).build();
  }

  @AfterEach
  void close() {
    store.close();
    memory.close();
  }

  private Assistant assistant(ScriptedChatModel model, AiServices<Assistant> extra) {
    return extra
        .chatModel(model)
        .chatMemoryProvider(
            id ->
                MessageWindowChatMemory.builder()
                    .id(id)
                    .maxMessages(10)
                    .chatMemoryStore(store)
                    .build())
        .build();
  }

  @Test
  void theSecondConversationsPromptHoldsWhatTheFirstTaught() {
    ScriptedChatModel model =
        new ScriptedChatModel()
            .then("What a lovely dog!")
            .then("Your beagle is Max.")
            .then("I do not know your dog.");
    EngramContentRetriever retriever =
        EngramContentRetriever.builder(memory).maxTokens(200).build();
    Assistant assistant =
        assistant(model, AiServices.builder(Assistant.class).contentRetriever(retriever));

    assertThat(assistant.chat("alice", "My dog is a beagle called Max"))
        .isEqualTo("What a lovely dog!");
    assertThat(store.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .containsExactlyInAnyOrder("What a lovely dog!", "My dog is a beagle called Max");

    store.deleteMessages("alice"); // a new conversation: the short-term window is empty again
    assertThat(assistant.chat("alice", "What is my dog called?")).isEqualTo("Your beagle is Max.");
    List<ChatMessage> prompt = model.requests.get(1).messages();
    assertThat(prompt).hasSize(1);
    assertThat(((UserMessage) prompt.get(0)).singleText())
        .startsWith("What is my dog called?")
        .contains("My dog is a beagle called Max");

    // the window keeps the augmented question; Engram is fed the user's own words only
    assertThat(store.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .contains("What is my dog called?", "Your beagle is Max.")
        .noneMatch(text -> text.contains("Answer using the following information"));

    assertThat(assistant.chat("bob", "What is my dog called?"))
        .isEqualTo("I do not know your dog.");
    assertThat(model.lastPrompt()).doesNotContain("beagle");
    assertThat(store.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(store.failedAdds()).isZero();
  }

  @Test
  void theRetrieverKeepsToItsTokenBudgetAndCombinesWithAnotherRetriever() {
    ScriptedChatModel model = new ScriptedChatModel().then("ok");
    memory.add(Scope.user("alice"), "x");
    memory.add(
        dev.engram.AddRequest.builder(Scope.user("alice"))
            .user("Alice likes green tea in the morning")
            .infer(false)
            .build());
    memory.add(
        dev.engram.AddRequest.builder(Scope.user("alice"))
            .user("Alice drinks tea with lemon " + "every single afternoon after lunch")
            .infer(false)
            .build());
    EngramContentRetriever engram = EngramContentRetriever.builder(memory).maxTokens(12).build();
    ContentRetriever documents =
        q -> List.of(Content.from("Green tea has less caffeine than coffee."));
    Assistant assistant =
        assistant(
            model,
            AiServices.builder(Assistant.class)
                .retrievalAugmentor(EngramRetrieval.augmentor(engram, documents)));

    assistant.chat("alice", "tea");

    String prompt = model.lastPrompt();
    assertThat(prompt).contains("Green tea has less caffeine than coffee.");
    // 12 cl100k tokens hold one of the two tea memories (7 and 10 tokens): the best one, and the
    // budget stops there
    assertThat(
            prompt.contains("Alice likes green tea in the morning")
                ^ prompt.contains("Alice drinks tea with lemon"))
        .isTrue();
  }

  @Test
  void memoryFailuresDoNotBreakTheChat() {
    ScriptedChatModel model = new ScriptedChatModel().then("Hello!").then("Still here.");
    Assistant assistant =
        assistant(
            model,
            AiServices.builder(Assistant.class)
                .contentRetriever(EngramContentRetriever.builder(memory).build()));
    memory.close(); // every Engram call now fails: searches before the model call, adds after it

    assertThat(assistant.chat("alice", "Hi, I live in Porto")).isEqualTo("Hello!");
    assertThat(assistant.chat("alice", "Where do I live?")).isEqualTo("Still here.");

    assertThat(store.awaitIdle(Duration.ofSeconds(30))).isTrue();
    assertThat(store.failedAdds()).isEqualTo(2);
    assertThat(model.lastPrompt()).contains("Hi, I live in Porto").contains("Where do I live?");
  }

  private static AiMessage call(String tool, String arguments) {
    return AiMessage.from(
        ToolExecutionRequest.builder().id(tool + "-1").name(tool).arguments(arguments).build());
  }

  private static String lastToolResult(ChatRequest r) {
    return r.messages().stream()
        .filter(m -> m instanceof ToolExecutionResultMessage)
        .map(m -> ((ToolExecutionResultMessage) m).text())
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  @Test
  void theAgentRemembersRecallsAndForgetsWithTools() {
    ScriptedChatModel model =
        new ScriptedChatModel()
            .then(r -> call("remember", "{\"fact\": \"The user is allergic to peanuts\"}"))
            .then("Noted.")
            .then(r -> call("recall", "{\"query\": \"allergic peanuts\"}"))
            .then(
                r -> {
                  String found = lastToolResult(r);
                  return call(
                      "forget", "{\"factId\": \"" + found.substring(0, found.indexOf(':')) + "\"}");
                })
            .then(r -> AiMessage.from("Done: " + lastToolResult(r)))
            .then(r -> call("forget", "{\"factId\": \"not-an-id\"}"))
            .then(r -> AiMessage.from(lastToolResult(r)));
    Assistant assistant =
        assistant(model, AiServices.builder(Assistant.class).tools(new EngramMemoryTools(memory)));

    assertThat(assistant.chat("alice", "Remember that I am allergic to peanuts"))
        .isEqualTo("Noted.");
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .contains("The user is allergic to peanuts");

    store.deleteMessages("alice");
    assertThat(assistant.chat("alice", "Forget my allergy"))
        .isEqualTo("Done: Forgotten: The user is allergic to peanuts");
    assertThat(lastToolResult(model.requests.get(3))).contains("The user is allergic to peanuts");
    assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items())
        .extracting(MemoryItem::text)
        .doesNotContain("The user is allergic to peanuts");

    assertThat(assistant.chat("bob", "Forget something"))
        .isEqualTo("No remembered fact has the id not-an-id.");
  }
}
