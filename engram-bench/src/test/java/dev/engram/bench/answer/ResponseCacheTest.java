package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import dev.engram.StorageException;
import dev.engram.spi.LanguageModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The on-disk response cache: persistence, keys, torn lines, locking and concurrent use. */
class ResponseCacheTest {
  private static final LanguageModel.Prompt PROMPT = prompt("system text", "user text");

  @TempDir Path dir;

  private static LanguageModel.Prompt prompt(String system, String user) {
    return new LanguageModel.Prompt(system, user, null, null, 64, 0.0);
  }

  @Test
  void reopenedCacheReturnsIdenticalTextWithoutComputing() {
    Path file = dir.resolve("nested/cache.jsonl");
    String text = "{\"answer\":\"7 May 2023\"}\nline two, ünïcödé \"quoted\"";
    try (ResponseCache cache = ResponseCache.open(file)) {
      assertThat(cache.getOrCompute("m", PROMPT, 0, () -> text)).isEqualTo(text);
      assertThat(cache.misses()).isEqualTo(1);
    }
    AtomicInteger computed = new AtomicInteger();
    try (ResponseCache cache = ResponseCache.open(file)) {
      assertThat(cache.size()).isEqualTo(1);
      assertThat(cache.getOrCompute("m", PROMPT, 0, () -> "other " + computed.incrementAndGet()))
          .isEqualTo(text);
      assertThat(cache.get("m", PROMPT, 0)).contains(text);
      assertThat(computed).hasValue(0);
      assertThat(cache.hits()).isEqualTo(1);
      assertThat(cache.misses()).isZero();
    }
  }

  @Test
  void modelSystemUserAndRunAreAllPartOfTheKey() {
    ResponseCache cache = ResponseCache.inMemory();
    cache.getOrCompute("m", PROMPT, 0, () -> "base");
    assertThat(cache.getOrCompute("other-model", PROMPT, 0, () -> "model")).isEqualTo("model");
    assertThat(cache.getOrCompute("m", prompt("other system", "user text"), 0, () -> "system"))
        .isEqualTo("system");
    assertThat(cache.getOrCompute("m", prompt("system text", "other user"), 0, () -> "user"))
        .isEqualTo("user");
    assertThat(cache.getOrCompute("m", PROMPT, 1, () -> "run 1")).isEqualTo("run 1");
    assertThat(cache.getOrCompute("m", PROMPT, 0, () -> "again")).isEqualTo("base");
    assertThat(cache.size()).isEqualTo(5);
    assertThat(ResponseCache.key("m", PROMPT, 0))
        .hasSize(64)
        .isEqualTo(ResponseCache.key("m", PROMPT, 0));
  }

  @Test
  void failedComputationStoresNothing() {
    ResponseCache cache = ResponseCache.inMemory();
    assertThatThrownBy(
            () ->
                cache.getOrCompute(
                    "m",
                    PROMPT,
                    0,
                    () -> {
                      throw new LanguageModelException(
                          LanguageModelException.Kind.TIMEOUT, "scripted timeout");
                    }))
        .isInstanceOf(LanguageModelException.class);
    assertThat(cache.size()).isZero();
    assertThat(cache.getOrCompute("m", PROMPT, 0, () -> "later")).isEqualTo("later");
  }

  @Test
  void tornLastLineIsSkippedAndTheFileStaysAppendable() throws Exception {
    Path file = dir.resolve("cache.jsonl");
    try (ResponseCache cache = ResponseCache.open(file)) {
      cache.getOrCompute("m", PROMPT, 0, () -> "kept");
    }
    Files.writeString(
        file, "{\"key\":\"abc", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    try (ResponseCache cache = ResponseCache.open(file)) {
      assertThat(cache.size()).isEqualTo(1);
      cache.getOrCompute("m", PROMPT, 1, () -> "new");
    }
    try (ResponseCache cache = ResponseCache.open(file)) {
      assertThat(cache.size()).isEqualTo(2);
      assertThat(cache.get("m", PROMPT, 0)).contains("kept");
      assertThat(cache.get("m", PROMPT, 1)).contains("new");
    }
    assertThat(Files.readAllLines(file)).hasSize(3);
  }

  @Test
  void aCacheFileCanBeOpenOnlyOnce() {
    Path file = dir.resolve("cache.jsonl");
    try (ResponseCache cache = ResponseCache.open(file)) {
      assertThatThrownBy(() -> ResponseCache.open(file))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("cache.jsonl")
          .hasMessageContaining("in use");
    }
    try (ResponseCache again = ResponseCache.open(file)) {
      assertThat(again.size()).isZero();
    }
  }

  @Test
  void concurrentRequestsForOneKeyComputeOnce() throws Exception {
    ResponseCache cache = ResponseCache.open(dir.resolve("cache.jsonl"));
    AtomicInteger computed = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<String>> tasks = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        int key = i % 4;
        tasks.add(
            () ->
                cache.getOrCompute(
                    "m", PROMPT, key, () -> "value " + key + " #" + computed.incrementAndGet()));
      }
      List<String> results = new ArrayList<>();
      for (Future<String> f : pool.invokeAll(tasks)) {
        results.add(f.get());
      }
      assertThat(computed).hasValue(4);
      for (int i = 0; i < 32; i++) {
        assertThat(results.get(i)).isEqualTo(cache.get("m", PROMPT, i % 4).orElseThrow());
      }
      assertThat(cache.hits() + cache.misses()).isEqualTo(32);
      assertThat(cache.misses()).isEqualTo(4);
    } finally {
      pool.shutdownNow();
      cache.close();
    }
  }
}
