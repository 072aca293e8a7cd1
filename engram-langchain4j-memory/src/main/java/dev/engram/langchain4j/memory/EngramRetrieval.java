package dev.engram.langchain4j.memory;

import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.router.DefaultQueryRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Puts Engram's memories beside an application's own retrievers (an AI service takes one
 * augmentor).
 */
public final class EngramRetrieval {
  private EngramRetrieval() {}

  /**
   * One {@link RetrievalAugmentor} that asks Engram and every other retriever for each query and
   * injects all their contents into the user message.
   */
  public static RetrievalAugmentor augmentor(
      EngramContentRetriever engram, ContentRetriever... others) {
    List<ContentRetriever> all = new ArrayList<>();
    all.add(Objects.requireNonNull(engram, "engram"));
    for (ContentRetriever r : others) {
      all.add(Objects.requireNonNull(r, "retriever"));
    }
    return DefaultRetrievalAugmentor.builder().queryRouter(new DefaultQueryRouter(all)).build();
  }
}
