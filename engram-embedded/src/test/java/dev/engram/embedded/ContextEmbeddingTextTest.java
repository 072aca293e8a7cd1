package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.spi.Embedder;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a context embedding reads, on the embedded storage: the end of the memory's source context,
 * the words nearest the memory, cut to a few hundred characters so that a long message before a
 * fact does not make its context embedding cost many times the fact's own. The embedder is a
 * hashing fake that records the texts it is given.
 */
class ContextEmbeddingTextTest {
  private static final Scope CHAT = Scope.user("chat");

  /** The opening of the long message before the answer, which the context embedding leaves out. */
  private static final String OPENING = "Openingword of a long question.";

  /** The end of the long message before the answer, which the context embedding keeps. */
  private static final String ENDING = "So what are your holiday plans?";

  private static final String ANSWER = "Researching adoption agencies";

  /** The characters of context a context embedding reads ({@code EmbeddingTexts}). */
  private static final int CONTEXT_LIMIT = 800;

  @TempDir Path dir;

  @Test
  void aLongMessageBeforeAFactGivesItsEndToTheContextEmbedding() throws Exception {
    String before =
        OPENING + " " + "I have been thinking about the year ahead. ".repeat(18) + ENDING;
    RecordingEmbedder embedder = new RecordingEmbedder(new HashEmbedder(64, "hash-64"));
    try (Memory memory = open(embedder)) {
      say(memory, "d1:1", before);
      embedder.texts.clear();
      say(memory, "d1:2", ANSWER);
    }
    // the answer's own text, then its context text: the end of the message before, then the answer
    assertThat(embedder.texts).hasSize(2);
    String contextText = embedder.texts.get(1);
    assertThat(contextText).endsWith(ENDING + "\nana: " + ANSWER).doesNotContain(OPENING);
    assertThat(contextText.length())
        .isLessThanOrEqualTo(CONTEXT_LIMIT + "\nana: ".length() + ANSWER.length());
    assertThat(before.length())
        .as("longer than the limit, within a source context's 1,000 characters per message")
        .isBetween(CONTEXT_LIMIT + 1, 1_000);
  }

  @Test
  void aShortMessageBeforeAFactIsReadWhole() throws Exception {
    RecordingEmbedder embedder = new RecordingEmbedder(new HashEmbedder(64, "hash-64"));
    try (Memory memory = open(embedder)) {
      say(memory, "d1:1", OPENING + " " + ENDING);
      embedder.texts.clear();
      say(memory, "d1:2", ANSWER);
    }
    assertThat(embedder.texts)
        .containsExactly("ana: " + ANSWER, OPENING + " " + ENDING + "\nana: " + ANSWER);
  }

  private Memory open(Embedder embedder) {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, embedder.dimension()))
        .embedder(embedder)
        .contextEmbeddings(true)
        .build();
  }

  private static void say(Memory memory, String sourceId, String text) {
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, text, "ana", null, sourceId))
            .infer(false)
            .build());
  }

  /** A fake that records every document text it embeds, in order, and embeds it with a delegate. */
  private static final class RecordingEmbedder implements Embedder {
    private final Embedder delegate;
    final List<String> texts = Collections.synchronizedList(new ArrayList<>());

    RecordingEmbedder(Embedder delegate) {
      this.delegate = delegate;
    }

    @Override
    public String modelId() {
      return delegate.modelId();
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public float[] embedQuery(String text) {
      return delegate.embedQuery(text);
    }

    @Override
    public List<float[]> embedDocuments(List<String> documents) {
      texts.addAll(documents);
      return delegate.embedDocuments(documents);
    }
  }
}
