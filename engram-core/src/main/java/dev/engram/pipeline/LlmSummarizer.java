package dev.engram.pipeline;

import dev.engram.Message;
import dev.engram.spi.ConversationSummarizer;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.UsageMeter;
import java.util.List;
import java.util.Objects;

/** Refreshes a scope's rolling summary with one language-model call. Thread-safe. */
public final class LlmSummarizer implements ConversationSummarizer {
  private final ModelCaller caller;
  private final int maxOutputTokens;

  public LlmSummarizer(ModelCaller caller, int maxOutputTokens) {
    this.caller = Objects.requireNonNull(caller, "caller");
    this.maxOutputTokens = maxOutputTokens;
  }

  @Override
  public String summarize(String previous, List<Message> newMessages, UsageMeter usage) {
    String user =
        "## Current summary\n"
            + (previous.isBlank() ? "(none)" : previous.trim())
            + "\n\n## Newest messages\n"
            + Prompts.transcript(newMessages);
    return caller.callText(
        "summary refresh",
        new LanguageModel.Prompt(Prompts.SUMMARIZE, user, null, null, maxOutputTokens, 0.0),
        usage);
  }
}
