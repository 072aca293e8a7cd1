package dev.engram.bench;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/** Counts tokens with OpenAI's cl100k_base encoding, as the Mem0 paper did. Thread-safe. */
public final class TokenCounter {
  private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  private TokenCounter() {}

  public static int count(String text) {
    return CL100K.countTokensOrdinary(text);
  }
}
