package dev.engram.examples.assistant;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;

/** The assistant as the application sees it; LangChain4j's {@code AiServices} implements it. */
public interface Assistant {
  /**
   * Answers one message of the user named by {@code userId} (also the Engram user id of its
   * memories).
   */
  @SystemMessage("You are a friendly personal assistant. Use what you remember about the user.")
  String chat(@MemoryId String userId, @UserMessage String message);
}
