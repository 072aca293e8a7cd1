package dev.engram.examples.springai;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * An offline stand-in for a language model, so that the example runs without a key or a network: it
 * answers with the memories {@code EngramMemoryAdvisor} put into the system prompt, or with a plain
 * acknowledgement when there are none. Replace it by a real model (see {@code
 * application.properties}).
 */
public class EchoChatModel implements ChatModel {
  /** The line the advisor puts before the memories. */
  static final String MEMORIES_HEADER =
      "What you remember about the user from earlier conversations:";

  @Override
  public ChatResponse call(Prompt prompt) {
    SystemMessage system = prompt.getSystemMessage();
    String text = system == null || system.getText() == null ? "" : system.getText();
    int at = text.indexOf(MEMORIES_HEADER);
    String memories = at < 0 ? "" : text.substring(at + MEMORIES_HEADER.length()).strip();
    String answer = memories.isEmpty() ? "Got it." : "I remember:\n" + memories;
    return new ChatResponse(List.of(new Generation(new AssistantMessage(answer))));
  }
}
