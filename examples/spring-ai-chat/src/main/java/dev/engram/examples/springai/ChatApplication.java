package dev.engram.examples.springai;

import dev.engram.spring.EngramMemoryAdvisor;
import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring AI chat with long-term memory. {@code engram-spring-boot-starter} makes the {@code
 * Memory} bean (embedded in {@code engram.data-dir}) and the {@link EngramMemoryAdvisor}; the
 * advisor, on the {@link ChatClient}, adds the user's memories to the system prompt before each
 * call and gives each exchange to Engram after it.
 *
 * <p>Run it twice: {@code ChatApplication alice "My dog is called Max"}, then {@code
 * ChatApplication alice "What is my dog called?"}.
 */
@SpringBootApplication
public class ChatApplication {

  /**
   * Runs {@link #chatOnce} and closes the context, which waits until the exchange is remembered.
   */
  public static void main(String[] args) {
    ConfigurableApplicationContext context = SpringApplication.run(ChatApplication.class, args);
    context.close(); // the ApplicationRunner has answered; closing waits until the exchange is
    // remembered
  }

  @Bean
  ChatClient chatClient(ChatModel model, EngramMemoryAdvisor engramMemory) {
    return ChatClient.builder(model)
        .defaultSystem(
            "You are a friendly personal assistant. Use what you remember about the user.")
        .defaultAdvisors(engramMemory)
        .build();
  }

  /**
   * The offline stand-in for a language model; {@code chat.model=openai} (or another) turns it off.
   */
  @Bean
  @ConditionalOnProperty(name = "chat.model", havingValue = "echo", matchIfMissing = true)
  ChatModel echoChatModel() {
    return new EchoChatModel();
  }

  /** {@code USER MESSAGE...} on the command line: one message, its answer on standard output. */
  @Bean
  ApplicationRunner chatOnce(Chat chat) {
    return args -> {
      List<String> words = args.getNonOptionArgs();
      if (words.size() >= 2) {
        System.out.println(
            chat.ask(words.get(0), String.join(" ", words.subList(1, words.size()))));
      }
    };
  }
}
