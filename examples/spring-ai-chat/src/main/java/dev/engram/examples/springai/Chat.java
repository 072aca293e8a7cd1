package dev.engram.examples.springai;

import dev.engram.spring.EngramMemoryAdvisor;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Service;

/** The chat: one message of a user, answered with what Engram remembers about that user. */
@Service
public class Chat {
  private final ChatClient chatClient;

  public Chat(ChatClient chatClient) {
    this.chatClient = chatClient;
  }

  /** Asks the model; the advisor searches and remembers in the scope of {@code userId}. */
  public String ask(String userId, String message) {
    return chatClient
        .prompt()
        .user(message)
        .advisors(a -> a.param(EngramMemoryAdvisor.USER_ID, userId))
        .call()
        .content();
  }
}
