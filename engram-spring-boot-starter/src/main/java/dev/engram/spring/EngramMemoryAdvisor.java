package dev.engram.spring;

import dev.engram.AddRequest;
import dev.engram.BackgroundAdds;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientMessageAggregator;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.beans.factory.DisposableBean;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A Spring AI advisor that gives a {@code ChatClient} long-term memory. Before the call it searches
 * the memories of the scope named in the advisor context ({@value #USER_ID}, {@value #AGENT_ID},
 * {@value #RUN_ID}) for the user's message and appends the best ones to the system prompt within a
 * token budget (the search's {@code maxTokens}, counted by the engine's {@code
 * dev.engram.TokenCounter} over the memory texts); after the call it adds the exchange (the user's
 * message and the answer) to Engram on its own thread. Without a scope in the context it does
 * nothing. Memory failures are logged and counted, never thrown into the chat.
 *
 * <p>It advises streaming calls the same way: the search runs on Reactor's bounded-elastic
 * scheduler before the stream starts, the streamed answer passes through unchanged, and once the
 * stream completes its text, aggregated, is added with the user's message on the advisor's own
 * thread.
 *
 * <pre>{@code
 * chatClient.prompt().user(text).advisors(a -> a.param(EngramMemoryAdvisor.USER_ID, "alice")).call().content();
 * chatClient.prompt().user(text).advisors(a -> a.param(EngramMemoryAdvisor.USER_ID, "alice")).stream().content();
 * }</pre>
 */
public final class EngramMemoryAdvisor implements CallAdvisor, StreamAdvisor, DisposableBean {
  /** Advisor context key of the user id. */
  public static final String USER_ID = "engram_user_id";

  /** Advisor context key of the agent id. */
  public static final String AGENT_ID = "engram_agent_id";

  /** Advisor context key of the run id. */
  public static final String RUN_ID = "engram_run_id";

  private static final Logger LOG = LoggerFactory.getLogger(EngramMemoryAdvisor.class);

  private final Memory memory;
  private final int topK;
  private final int maxTokens;
  private final boolean infer;
  private final BackgroundAdds feeder;

  public EngramMemoryAdvisor(Memory memory, int topK, int maxTokens, boolean infer) {
    this.memory = Objects.requireNonNull(memory, "memory");
    if (topK < 1 || topK > SearchRequest.MAX_TOP_K) {
      throw new dev.engram.ValidationException(
          "engram.advisor.top-k",
          "must be between 1 and " + SearchRequest.MAX_TOP_K + ", got " + topK);
    }
    if (maxTokens < 1) {
      throw new dev.engram.ValidationException(
          "engram.advisor.max-tokens", "must be positive, got " + maxTokens);
    }
    this.topK = topK;
    this.maxTokens = maxTokens;
    this.infer = infer;
    this.feeder = new BackgroundAdds(memory, "engram-advisor-feeder", 1000);
  }

  @Override
  public String getName() {
    return "EngramMemoryAdvisor";
  }

  @Override
  public int getOrder() {
    return Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER;
  }

  @Override
  public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
    Optional<Exchange> exchange = exchange(request);
    if (exchange.isEmpty()) {
      return chain.nextCall(request);
    }
    ChatClientResponse response = chain.nextCall(withMemories(request, exchange.get()));
    remember(exchange.get(), response);
    return response;
  }

  @Override
  public Flux<ChatClientResponse> adviseStream(
      ChatClientRequest request, StreamAdvisorChain chain) {
    Optional<Exchange> exchange = exchange(request);
    if (exchange.isEmpty()) {
      return chain.nextStream(request);
    }
    Flux<ChatClientResponse> answer =
        Mono.fromCallable(() -> withMemories(request, exchange.get()))
            .subscribeOn(Schedulers.boundedElastic())
            .flatMapMany(chain::nextStream);
    return new ChatClientMessageAggregator()
        .aggregateChatClientResponse(answer, whole -> remember(exchange.get(), whole));
  }

  /** The scope and the user's message of a request, if it names a scope and has a message. */
  private record Exchange(Scope scope, String question) {}

  private static Optional<Exchange> exchange(ChatClientRequest request) {
    Optional<Scope> scope = scope(request.context());
    UserMessage user = request.prompt().getUserMessage();
    String question = user == null ? null : user.getText();
    if (scope.isEmpty() || question == null || question.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new Exchange(scope.get(), question));
  }

  /**
   * The request with the scope's best memories appended to its system prompt (unchanged if none).
   */
  private ChatClientRequest withMemories(ChatClientRequest request, Exchange exchange) {
    String memories = memories(exchange.scope(), exchange.question());
    return memories.isEmpty()
        ? request
        : request
            .mutate()
            .prompt(
                request
                    .prompt()
                    .augmentSystemMessage(
                        system ->
                            new SystemMessage(
                                (system.getText() == null || system.getText().isBlank()
                                        ? ""
                                        : system.getText() + "\n\n")
                                    + memories)))
            .build();
  }

  /** Exchanges that could not be remembered (failed or dropped) since this advisor was made. */
  public long failures() {
    return feeder.failures();
  }

  /** Waits until the exchanges queued so far are added; false if {@code timeout} passed first. */
  public boolean awaitIdle(Duration timeout) {
    return feeder.awaitIdle(timeout);
  }

  /** Lets queued adds finish (up to 30 s) and stops the feeder thread. */
  @Override
  public void destroy() {
    feeder.close();
  }

  private static Optional<Scope> scope(Map<String, Object> context) {
    String user = text(context.get(USER_ID));
    String agent = text(context.get(AGENT_ID));
    String run = text(context.get(RUN_ID));
    return user == null && agent == null && run == null
        ? Optional.empty()
        : Optional.of(Scope.of(user, agent, run));
  }

  private static String text(Object v) {
    return v == null || String.valueOf(v).isBlank() ? null : String.valueOf(v);
  }

  /**
   * The system prompt block of the best memories within the budget; empty when none (or the search
   * failed).
   */
  private String memories(Scope scope, String question) {
    List<SearchHit> hits;
    try {
      hits =
          memory
              .search(
                  SearchRequest.builder(scope, question).topK(topK).maxTokens(maxTokens).build())
              .hits();
    } catch (RuntimeException e) {
      feeder.countFailure();
      LOG.warn(
          "Engram search failed; the call goes on without long-term memories: {}", e.toString());
      return "";
    }
    StringBuilder block = new StringBuilder();
    for (SearchHit h : hits) {
      block.append("- ").append(h.memory().text()).append('\n');
    }
    return block.length() == 0
        ? ""
        : "What you remember about the user from earlier conversations:\n" + block;
  }

  private void remember(Exchange exchange, ChatClientResponse response) {
    ChatResponse chat = response == null ? null : response.chatResponse();
    String answer =
        chat == null || chat.getResult() == null || chat.getResult().getOutput() == null
            ? null
            : chat.getResult().getOutput().getText();
    if (answer == null || answer.isBlank()) {
      return;
    }
    AddRequest add =
        AddRequest.builder(exchange.scope())
            .user(exchange.question())
            .assistant(answer)
            .infer(infer)
            .build();
    feeder.submit(add, "an exchange of " + exchange.scope());
  }
}
