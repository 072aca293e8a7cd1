package dev.engram.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.ValidationException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a LoCoMo file (a JSON array of samples, or one sample): one scope per conversation ({@code
 * user_id} = its {@code sample_id}, plus the command's agent and run ids), each turn a user message
 * named after its speaker, with its {@code dia_id} as source id and its session's {@code
 * session_N_date_time} (UTC) as timestamp. Each session becomes one add request in a batch of its
 * own.
 */
final class LocomoImport {
  private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
  private static final DateTimeFormatter DATE =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .appendPattern("h:mm a 'on' d MMMM, yyyy")
          .toFormatter(Locale.ENGLISH);

  private LocomoImport() {}

  static ImportPlan plan(JsonNode root, ScopeOptions options, boolean infer, List<String> only) {
    if (options.hasUserId()) {
      throw new ValidationException(
          "user_id",
          "a LoCoMo import uses each conversation's sample_id as user_id;"
              + " drop --user-id (--agent-id and --run-id are kept)");
    }
    List<JsonNode> samples = new ArrayList<>();
    if (root.isArray()) {
      root.forEach(samples::add);
    } else if (root.isObject()) {
      samples.add(root);
    } else {
      throw new ValidationException(
          "file",
          "a LoCoMo file is a JSON array of samples, got "
              + root.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    Set<String> wanted = new LinkedHashSet<>(only);
    List<List<AddRequest>> batches = new ArrayList<>();
    int conversations = 0;
    for (int i = 0; i < samples.size(); i++) {
      String path = "samples[" + i + "]";
      JsonNode sample = samples.get(i);
      String sampleId = text(path + ".sample_id", sample.get("sample_id"));
      if (!wanted.isEmpty() && !wanted.remove(sampleId)) {
        continue;
      }
      Scope scope = options.overriddenBy(sampleId, null, null);
      JsonNode conversation = sample.get("conversation");
      if (conversation == null || !conversation.isObject()) {
        throw new ValidationException(path + ".conversation", "is required and must be an object");
      }
      sessions(path + ".conversation", conversation, scope, infer, batches);
      conversations++;
    }
    if (!wanted.isEmpty()) {
      throw new ValidationException(
          "sample", "no conversation with sample_id " + String.join(", ", wanted) + " in the file");
    }
    if (batches.isEmpty()) {
      throw new ValidationException("file", "holds no conversation turns");
    }
    return new ImportPlan(
        batches,
        conversations
            + (conversations == 1 ? " conversation, " : " conversations, ")
            + batches.size()
            + (batches.size() == 1 ? " session" : " sessions"));
  }

  /** Parses a LoCoMo session date such as {@code 1:56 pm on 8 May, 2023}, taken as UTC. */
  static Instant sessionDate(String field, String text) {
    try {
      return LocalDateTime.parse(text.trim(), DATE).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new ValidationException(
          field, "'" + text + "' is not a LoCoMo date like '1:56 pm on 8 May, 2023'");
    }
  }

  private static void sessions(
      String path,
      JsonNode conversation,
      Scope scope,
      boolean infer,
      List<List<AddRequest>> batches) {
    TreeMap<Integer, JsonNode> sessions = new TreeMap<>();
    Iterator<String> names = conversation.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      Matcher m = SESSION.matcher(name);
      if (m.matches() && conversation.get(name).isArray()) {
        sessions.put(Integer.parseInt(m.group(1)), conversation.get(name));
      }
    }
    for (var e : sessions.entrySet()) {
      String dateKey = "session_" + e.getKey() + "_date_time";
      JsonNode date = conversation.get(dateKey);
      Instant at =
          date == null || date.isNull()
              ? null
              : sessionDate(path + "." + dateKey, text(path + "." + dateKey, date));
      List<Message> messages = turns(path + ".session_" + e.getKey(), e.getValue(), at);
      if (!messages.isEmpty()) {
        batches.add(
            List.of(
                AddRequest.builder(scope).messages(messages).timestamp(at).infer(infer).build()));
      }
    }
  }

  private static List<Message> turns(String path, JsonNode turns, Instant at) {
    List<Message> out = new ArrayList<>(turns.size());
    for (int j = 0; j < turns.size(); j++) {
      String p = path + "[" + j + "]";
      JsonNode turn = turns.get(j);
      if (!turn.isObject()) {
        throw new ValidationException(p, "a turn must be an object with speaker, dia_id and text");
      }
      String speaker = text(p + ".speaker", turn.get("speaker"));
      JsonNode diaId = turn.get("dia_id");
      String text = text(p + ".text", turn.get("text"));
      if (text.isBlank()) {
        continue;
      }
      out.add(
          new Message(
              Role.USER,
              text,
              speaker,
              at,
              diaId == null || diaId.isNull() ? null : diaId.asText()));
    }
    return out;
  }

  private static String text(String field, JsonNode v) {
    if (v == null || v.isNull()) {
      throw new ValidationException(field, "is required");
    }
    if (!v.isTextual()) {
      throw new ValidationException(field, "must be a string, got " + v);
    }
    return v.asText();
  }
}
