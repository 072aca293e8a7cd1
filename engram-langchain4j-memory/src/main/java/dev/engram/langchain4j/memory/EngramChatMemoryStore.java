package dev.engram.langchain4j.memory;

import dev.engram.AddRequest;
import dev.engram.BackgroundAdds;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A LangChain4j {@link ChatMemoryStore} that keeps the short-term window in a delegate store (in
 * memory by default, or the application's persistent one) and feeds every finished exchange (a user
 * message and the assistant's final answer) to Engram's long-term pipeline, in the background. Use
 * it as the store of a {@code MessageWindowChatMemory}.
 *
 * <p>Feeding never fails or slows the chat: it runs on the store's own thread, in order; a failed
 * add (or a full queue) is logged and counted ({@link #failedAdds()}), and the window is kept
 * regardless. An exchange is fed once, even when the window is saved again. {@link #awaitIdle}
 * waits for the adds queued so far (for tests and shutdown).
 *
 * <p>Engram is given the user's own words: when a retrieval augmentor has appended retrieved
 * contents to the user message (LangChain4j keeps the augmented message in chat memory unless the
 * AI service is built with {@code storeRetrievedContentInChatMemory(false)}), the text from {@link
 * Builder#injectedContentHeader the injector's header} on is cut off, so memories are not fed back
 * into memory as if the user had said them.
 */
public final class EngramChatMemoryStore implements ChatMemoryStore, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngramChatMemoryStore.class);

  /**
   * What LangChain4j's {@code DefaultContentInjector} puts between the user's words and the
   * retrieved contents.
   */
  public static final String DEFAULT_INJECTED_CONTENT_HEADER =
      "\n\nAnswer using the following information:\n";

  private final Memory memory;
  private final ChatMemoryStore window;
  private final ScopeResolver scopes;
  private final boolean infer;
  private final String injectedContentHeader;
  private final BackgroundAdds feeder;
  private final Map<Object, AiMessage> lastFed = new ConcurrentHashMap<>();

  private EngramChatMemoryStore(Builder b) {
    this.memory = b.memory;
    this.window = b.window;
    this.scopes = b.scopes;
    this.infer = b.infer;
    this.injectedContentHeader = b.injectedContentHeader;
    this.feeder = new BackgroundAdds(memory, "engram-chat-memory-feeder", b.queueSize);
  }

  public static Builder builder(Memory memory) {
    return new Builder(memory);
  }

  @Override
  public List<ChatMessage> getMessages(Object memoryId) {
    return window.getMessages(memoryId);
  }

  @Override
  public void updateMessages(Object memoryId, List<ChatMessage> messages) {
    window.updateMessages(memoryId, messages);
    try {
      exchange(memoryId, messages)
          .ifPresent(request -> feeder.submit(request, "an exchange of chat memory " + memoryId));
    } catch (RuntimeException e) {
      feeder.countFailure();
      LOG.warn(
          "an exchange of chat memory {} could not be given to Engram: {}", memoryId, e.toString());
    }
  }

  @Override
  public void deleteMessages(Object memoryId) {
    window.deleteMessages(memoryId);
    lastFed.remove(memoryId);
  }

  /** Adds that failed or could not be queued since this store was built. */
  public long failedAdds() {
    return feeder.failures();
  }

  /** Waits until the adds queued so far are done; false if {@code timeout} passed first. */
  public boolean awaitIdle(Duration timeout) {
    return feeder.awaitIdle(timeout);
  }

  /** Lets queued adds finish (up to 30 s), then stops the feeder thread. */
  @Override
  public void close() {
    feeder.close();
  }

  /** The latest finished exchange of the window, if it was not fed yet. */
  // Identity on purpose: the window hands back the same message object it was fed; an equal answer
  // given again in a
  // later turn is a new exchange.
  @SuppressWarnings("ReferenceEquality")
  private Optional<AddRequest> exchange(Object memoryId, List<ChatMessage> messages) {
    if (messages.isEmpty()
        || !(messages.get(messages.size() - 1) instanceof AiMessage answer)
        || answer.hasToolExecutionRequests()
        || answer.text() == null
        || answer.text().isBlank()
        || lastFed.get(memoryId) == answer) {
      return Optional.empty();
    }
    UserMessage question = null;
    for (int i = messages.size() - 2; i >= 0 && question == null; i--) {
      if (messages.get(i) instanceof UserMessage u && u.hasSingleText()) {
        question = u;
      }
    }
    Optional<Scope> scope = scopes.resolve(Optional.of(memoryId), Optional.empty());
    if (question == null || scope.isEmpty()) {
      return Optional.empty();
    }
    lastFed.put(memoryId, answer);
    String said = userWords(question.singleText());
    if (said.isBlank()) {
      return Optional.empty();
    }
    Message user = Message.user(said);
    if (question.name() != null && !question.name().isBlank()) {
      user = user.withName(question.name());
    }
    return Optional.of(
        AddRequest.builder(scope.get())
            .message(user)
            .message(Message.assistant(answer.text()))
            .infer(infer)
            .build());
  }

  /** The user's own words of a message: the text before the injected contents' header, if any. */
  private String userWords(String text) {
    int header = text.indexOf(injectedContentHeader);
    return header < 0 ? text : text.substring(0, header).strip();
  }

  /**
   * Settings: an in-memory window, the chat memory id as the user id, the inference pipeline on,
   * 1000 queued adds.
   */
  public static final class Builder {
    private final Memory memory;
    private ChatMemoryStore window = new InMemoryChatMemoryStore();
    private ScopeResolver scopes = ScopeResolver.standard();
    private boolean infer = true;
    private int queueSize = 1000;
    private String injectedContentHeader = DEFAULT_INJECTED_CONTENT_HEADER;

    private Builder(Memory memory) {
      this.memory = Objects.requireNonNull(memory, "memory");
    }

    /** Where the short-term window lives (the application's persistent store, for example). */
    public Builder window(ChatMemoryStore store) {
      this.window = Objects.requireNonNull(store, "window");
      return this;
    }

    /** How a chat memory id becomes a scope (only the memory id is known here). */
    public Builder scopeResolver(ScopeResolver r) {
      this.scopes = Objects.requireNonNull(r, "scopeResolver");
      return this;
    }

    /**
     * True (default) to run Engram's extraction on each exchange; false to store the two messages
     * verbatim.
     */
    public Builder infer(boolean value) {
      this.infer = value;
      return this;
    }

    /**
     * How many exchanges may wait to be added before new ones are dropped (and counted as failed).
     */
    public Builder queueSize(int n) {
      if (n < 1) {
        throw new dev.engram.ValidationException("queue_size", "must be positive, got " + n);
      }
      this.queueSize = n;
      return this;
    }

    /**
     * The text a custom content injector puts between the user's words and the retrieved contents
     * (default {@link #DEFAULT_INJECTED_CONTENT_HEADER}, LangChain4j's default injector's); what
     * follows it is not fed.
     */
    public Builder injectedContentHeader(String header) {
      Objects.requireNonNull(header, "injectedContentHeader");
      if (header.isBlank()) {
        throw new dev.engram.ValidationException("injected_content_header", "must not be blank");
      }
      this.injectedContentHeader = header;
      return this;
    }

    public EngramChatMemoryStore build() {
      return new EngramChatMemoryStore(this);
    }
  }
}
