package dev.engram.pipeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.LanguageModelException;
import java.util.regex.Pattern;

/**
 * Tolerant reading of JSON answers from language models: strips {@code <think>} blocks,
 * chat-template tokens and code fences, then parses the first complete JSON object in the text
 * (string-aware brace matching), so chatty answers with text around the JSON still work. Anything
 * else is an {@link LanguageModelException.Kind#INVALID_RESPONSE}.
 */
public final class JsonAnswers {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS).build();
  private static final Pattern THINK = Pattern.compile("(?is)<think>.*?(</think>|$)");
  private static final Pattern TEMPLATE_TOKENS =
      Pattern.compile("<\\|(eot_id|im_end|im_start|end_of_text|endoftext)\\|>");
  private static final Pattern FENCE = Pattern.compile("```[a-zA-Z]*");

  private JsonAnswers() {}

  /** The first JSON object in {@code text}. */
  public static JsonNode firstObject(String text, String step) {
    String cleaned =
        FENCE
            .matcher(TEMPLATE_TOKENS.matcher(THINK.matcher(text).replaceAll("")).replaceAll(""))
            .replaceAll("")
            .trim();
    for (int start = cleaned.indexOf('{'); start >= 0; start = cleaned.indexOf('{', start + 1)) {
      int end = matchingBrace(cleaned, start);
      if (end < 0) {
        break;
      }
      try {
        JsonNode node = MAPPER.readTree(cleaned.substring(start, end + 1));
        if (node != null && node.isObject()) {
          return node;
        }
      } catch (JsonProcessingException e) {
        // try the next opening brace
      }
    }
    throw new LanguageModelException(
        LanguageModelException.Kind.INVALID_RESPONSE,
        step + ": the model's answer holds no complete JSON object: " + preview(text));
  }

  private static int matchingBrace(String s, int start) {
    int depth = 0;
    boolean inString = false;
    for (int i = start; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  static String preview(String text) {
    String t = text.replaceAll("\\s+", " ").trim();
    return t.length() <= 200 ? "'" + t + "'" : "'" + t.substring(0, 200) + "...'";
  }
}
