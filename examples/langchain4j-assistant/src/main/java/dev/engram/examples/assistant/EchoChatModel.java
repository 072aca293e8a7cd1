package dev.engram.examples.assistant;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;

/**
 * An offline stand-in for a language model, so that the example runs without a key or a network: it
 * answers with the memories the content retriever put into the prompt (after LangChain4j's "Answer
 * using the following information:" line), or with a plain acknowledgement when there are none.
 * Replace it with a real {@link ChatModel} (OpenAI, Anthropic, Ollama, ...) in {@link
 * AssistantApp#main}.
 */
public final class EchoChatModel implements ChatModel {
  /** The line LangChain4j's default content injector puts before the retrieved contents. */
  static final String CONTENTS_HEADER = "Answer using the following information:";

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    String prompt =
        messages.isEmpty()
                || !(messages.get(messages.size() - 1) instanceof UserMessage user)
                || !user.hasSingleText()
            ? ""
            : user.singleText();
    int at = prompt.indexOf(CONTENTS_HEADER);
    String memories = at < 0 ? "" : prompt.substring(at + CONTENTS_HEADER.length()).strip();
    String answer = memories.isEmpty() ? "Got it." : "I remember:\n" + memories;
    return ChatResponse.builder().aiMessage(AiMessage.from(answer)).build();
  }
}
