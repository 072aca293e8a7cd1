package dev.engram.spi;

import dev.engram.Message;
import java.util.List;

/**
 * Keeps a scope's rolling conversation summary, which extraction reads as context. The engine calls
 * it asynchronously after an add has committed, never on the add's critical path; a failure keeps
 * the old summary. Thread-safe.
 */
public interface ConversationSummarizer {
  /**
   * The new summary.
   *
   * @param previous the current summary ("" if none)
   * @param newMessages the messages added since, oldest first
   * @param usage where language-model calls are recorded
   */
  String summarize(String previous, List<Message> newMessages, UsageMeter usage);
}
