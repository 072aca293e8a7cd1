package dev.engram.spring;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.ValidationException;
import dev.engram.client.EngramClient;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.Embedder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Makes a {@link Memory} bean from {@link EngramProperties} (unless the application defines one):
 * embedded in {@code engram.data-dir} with the application's {@link Embedder} bean (or the default
 * ONNX embedder when {@code engram-onnx} is on the classpath), or a {@code RemoteMemory} when
 * {@code engram.mode=remote}. With Actuator's health module present, an {@link
 * EngramHealthIndicator} ({@code engram}); with Spring AI's ChatClient present, an {@link
 * EngramMemoryAdvisor}. {@code engram.enabled=false} turns it all off.
 */
@AutoConfiguration
@ConditionalOnProperty(
    prefix = "engram",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(EngramProperties.class)
public class EngramAutoConfiguration {
  private static final String ONNX = "dev.engram.onnx.OnnxEmbedders";

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Memory engramMemory(EngramProperties properties, ObjectProvider<Embedder> embedders) {
    return switch (properties.mode()) {
      case REMOTE -> remote(properties.remote());
      case EMBEDDED ->
          embedded(properties, embedders.getIfAvailable(EngramAutoConfiguration::defaultEmbedder));
    };
  }

  private static Memory remote(EngramProperties.Remote r) {
    if (r.baseUrl() == null || r.baseUrl().isBlank()) {
      throw new ValidationException(
          "engram.remote.base-url", "is required when engram.mode is remote");
    }
    if (r.apiKey() == null || r.apiKey().isBlank()) {
      throw new ValidationException(
          "engram.remote.api-key", "is required when engram.mode is remote");
    }
    return EngramClient.builder()
        .baseUrl(r.baseUrl())
        .apiKey(r.apiKey())
        .timeout(r.timeout())
        .maxRetries(r.maxRetries())
        .build();
  }

  private static Memory embedded(EngramProperties p, Embedder embedder) {
    return Engram.builder().storage(EmbeddedStorage.at(p.dataDir())).embedder(embedder).build();
  }

  private static Embedder defaultEmbedder() {
    if (!ClassUtils.isPresent(ONNX, EngramAutoConfiguration.class.getClassLoader())) {
      throw new IllegalStateException(
          "engram.mode=embedded needs an Embedder bean, or dev.engram:engram-onnx"
              + " on the classpath for the default ONNX embedder");
    }
    return OnnxDefault.embedder();
  }

  /** Loaded only when engram-onnx is present. */
  private static final class OnnxDefault {
    static Embedder embedder() {
      return dev.engram.onnx.OnnxEmbedders.defaultEmbedder();
    }
  }

  /** The Actuator health indicator, when Spring Boot's health module is present. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "engramHealthIndicator")
    EngramHealthIndicator engramHealthIndicator(Memory memory) {
      return new EngramHealthIndicator(memory);
    }
  }

  /** The Spring AI advisor, when Spring AI's ChatClient is present. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.ai.chat.client.advisor.api.CallAdvisor")
  static class SpringAi {
    @Bean
    @ConditionalOnMissingBean
    EngramMemoryAdvisor engramMemoryAdvisor(Memory memory, EngramProperties properties) {
      EngramProperties.Advisor a = properties.advisor();
      return new EngramMemoryAdvisor(memory, a.topK(), a.maxTokens(), a.infer());
    }
  }
}
