package dev.engram.langchain4j.memory;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A scripted stand-in for an LLM (none can run here): answers each request with the next scripted
 * step and keeps every request it was sent, so that tests can read the prompts the application
 * built.
 */
final class ScriptedChatModel implements ChatModel {
  final List<ChatRequest> requests = new ArrayList<>();
  private final Deque<Function<ChatRequest, AiMessage>> steps = new ArrayDeque<>();

  ScriptedChatModel then(String answer) {
    steps.add(r -> AiMessage.from(answer));
    return this;
  }

  ScriptedChatModel then(Function<ChatRequest, AiMessage> step) {
    steps.add(step);
    return this;
  }

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    requests.add(request);
    if (steps.isEmpty()) {
      throw new AssertionError("the script has no answer for request " + requests.size());
    }
    return ChatResponse.builder().aiMessage(steps.poll().apply(request)).build();
  }

  /** The text of every message of the last request, one per line. */
  synchronized String lastPrompt() {
    return requests.get(requests.size() - 1).messages().toString();
  }
}
