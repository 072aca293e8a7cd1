package dev.engram.spring;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

/**
 * A scripted stand-in for an LLM (none can run here): answers in order and keeps every prompt it
 * received. A streamed answer arrives word by word, one chunk per word (with its leading space), as
 * a provider streams tokens.
 */
final class ScriptedChatModel implements ChatModel {
  final List<Prompt> prompts = new ArrayList<>();
  private final Deque<String> answers = new ArrayDeque<>();

  ScriptedChatModel(String... script) {
    answers.addAll(List.of(script));
  }

  @Override
  public synchronized ChatResponse call(Prompt prompt) {
    prompts.add(prompt);
    if (answers.isEmpty()) {
      throw new AssertionError("the script has no answer for prompt " + prompts.size());
    }
    return new ChatResponse(List.of(new Generation(new AssistantMessage(answers.poll()))));
  }

  @Override
  public Flux<ChatResponse> stream(Prompt prompt) {
    String answer = call(prompt).getResult().getOutput().getText();
    List<ChatResponse> chunks = new ArrayList<>();
    for (String chunk : answer.split("(?= )")) {
      chunks.add(new ChatResponse(List.of(new Generation(new AssistantMessage(chunk)))));
    }
    return Flux.fromIterable(chunks);
  }
}
