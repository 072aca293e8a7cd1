package dev.engram.examples.assistant;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.langchain4j.memory.EngramChatMemoryStore;
import dev.engram.langchain4j.memory.EngramContentRetriever;
import dev.engram.langchain4j.memory.EngramMemoryTools;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A LangChain4j assistant with long-term memory: Engram, embedded in a data directory, keeps what
 * each user said, so the assistant still knows it after a restart.
 *
 * <ul>
 *   <li>{@link EngramChatMemoryStore} keeps the short-term window and gives every exchange to
 *       Engram in the background;
 *   <li>{@link EngramContentRetriever} finds the user's memories for each message and adds them to
 *       the prompt;
 *   <li>{@link EngramMemoryTools} lets the model remember, recall and forget on its own (tool
 *       calls).
 * </ul>
 *
 * <p>Run it twice: {@code AssistantApp alice "My dog is called Max"}, then {@code AssistantApp
 * alice "What is my dog called?"}. Without a message it reads one message per line from standard
 * input.
 */
public final class AssistantApp implements AutoCloseable {
  private final Memory memory;
  private final EngramChatMemoryStore chatMemory;
  private final Assistant assistant;

  private AssistantApp(Memory memory, ChatModel model) {
    this.memory = memory;
    this.chatMemory = EngramChatMemoryStore.builder(memory).build();
    this.assistant =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(
                id ->
                    MessageWindowChatMemory.builder()
                        .id(id)
                        .maxMessages(20)
                        .chatMemoryStore(chatMemory)
                        .build())
            .contentRetriever(EngramContentRetriever.builder(memory).maxTokens(400).build())
            .storeRetrievedContentInChatMemory(
                false) // Engram is given the user's own words, not the memories too
            .tools(new EngramMemoryTools(memory))
            .build();
  }

  /**
   * Opens the memory in {@code dataDir} (made if missing) and an assistant that talks through
   * {@code model}.
   */
  public static AssistantApp open(Path dataDir, ChatModel model) {
    Memory memory =
        Engram.embedded(dataDir); // SQLite + Lucene + in-process ONNX bge-small: no network, no key
    return new AssistantApp(memory, model);
  }

  /** One message of {@code userId}, and the assistant's answer. */
  public String chat(String userId, String message) {
    return assistant.chat(userId, message);
  }

  /** Waits for the exchanges still being remembered, then closes the memory. */
  @Override
  public void close() {
    chatMemory.close();
    memory.close();
  }

  /**
   * {@code AssistantApp USER [MESSAGE...]}; the data directory is {@code -Dengram.data-dir}
   * (default engram-data).
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: AssistantApp USER [MESSAGE...]");
      System.exit(2);
    }
    // The language model. EchoChatModel runs offline and answers with what it was told about the
    // user; for a real
    // one change this line, for example to:
    //   ChatModel model = dev.langchain4j.model.openai.OpenAiChatModel.builder()
    //       .apiKey(System.getenv("OPENAI_API_KEY")).modelName("gpt-4o-mini").build();
    ChatModel model = new EchoChatModel();
    Path dataDir = Path.of(System.getProperty("engram.data-dir", "engram-data"));
    String user = args[0];
    try (AssistantApp app = open(dataDir, model)) {
      if (args.length > 1) {
        System.out.println(
            app.chat(user, String.join(" ", Arrays.copyOfRange(args, 1, args.length))));
        return;
      }
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      System.out.print(user + "> ");
      System.out.flush();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isBlank()) {
          System.out.println("assistant> " + app.chat(user, line));
        }
        System.out.print(user + "> ");
        System.out.flush();
      }
    }
  }
}
