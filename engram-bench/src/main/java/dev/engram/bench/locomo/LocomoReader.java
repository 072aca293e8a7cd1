package dev.engram.bench.locomo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ValidationException;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Observation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads files in LoCoMo's format ({@code data/locomo10.json}: a JSON array of samples). Sessions
 * are taken from the session lists present (some samples list dates of sessions that have no
 * turns), in number order. Reads BEAM conversations converted to this format as they are: each
 * question's {@code beam_type}, if present, becomes {@link Question#beamType()}; BEAM's other
 * fields ({@code beam_id}, {@code rubric}, ...) are ignored.
 */
public final class LocomoReader {
  private static final Pattern SESSION_KEY = Pattern.compile("session_(\\d+)");
  private static final Pattern OBSERVATION_KEY = Pattern.compile("session_(\\d+)_observation");
  private static final DateTimeFormatter SESSION_TIME =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .appendPattern("h:mm a 'on' d MMMM, yyyy")
          .toFormatter(Locale.ENGLISH);

  private LocomoReader() {}

  /**
   * Reads every conversation of a file.
   *
   * @throws ValidationException if the file is missing, is not JSON, or is not in LoCoMo's format
   */
  public static List<Conversation> read(Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new ValidationException(
          "data",
          "'" + file + "' " + (Files.exists(file) ? "is not a readable file" : "does not exist"));
    }
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(Files.readAllBytes(file));
    } catch (JsonProcessingException e) {
      throw new ValidationException(
          "data", "malformed JSON in '" + file + "': " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read LoCoMo file " + file, e);
    }
    if (root == null || !root.isArray()) {
      throw new ValidationException(
          "data", file + " is not a LoCoMo file: expected a JSON array of samples");
    }
    List<Conversation> out = new ArrayList<>();
    for (JsonNode sample : root) {
      out.add(conversation(sample));
    }
    return out;
  }

  /** Parses a LoCoMo session time such as {@code 1:56 pm on 8 May, 2023}, taken as UTC. */
  public static Instant parseSessionTime(String text) {
    try {
      return LocalDateTime.parse(text.trim(), SESSION_TIME).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new ValidationException(
          "session_date_time",
          "'" + text + "' is not a LoCoMo session time such as '1:56 pm on 8 May, 2023'");
    }
  }

  private static Conversation conversation(JsonNode sample) {
    String id = sample.path("sample_id").asText();
    JsonNode conv = sample.path("conversation");
    if (!conv.isObject()) {
      throw new ValidationException(
          "conversation", "sample '" + id + "' has no conversation object");
    }
    List<Session> sessions = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> fields = conv.properties().iterator();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> e = fields.next();
      Matcher m = SESSION_KEY.matcher(e.getKey());
      if (!m.matches() || !e.getValue().isArray()) {
        continue;
      }
      int n = Integer.parseInt(m.group(1));
      JsonNode date = conv.get("session_" + n + "_date_time");
      if (date == null || !date.isTextual()) {
        throw new ValidationException(
            "session_" + n + "_date_time", "missing in sample '" + id + "'");
      }
      List<Turn> turns = new ArrayList<>();
      for (JsonNode t : e.getValue()) {
        turns.add(
            new Turn(
                t.path("speaker").asText(), t.path("dia_id").asText(), t.path("text").asText()));
      }
      sessions.add(new Session(n, parseSessionTime(date.asText()), turns));
    }
    sessions.sort((a, b) -> Integer.compare(a.number(), b.number()));
    return new Conversation(
        id,
        conv.path("speaker_a").asText(),
        conv.path("speaker_b").asText(),
        sessions,
        questions(sample.path("qa")),
        observations(sample.path("observation")));
  }

  private static List<Question> questions(JsonNode qa) {
    List<Question> out = new ArrayList<>();
    for (JsonNode q : qa) {
      JsonNode answer = q.has("answer") ? q.get("answer") : q.path("adversarial_answer");
      List<String> evidence = new ArrayList<>();
      for (JsonNode ev : q.path("evidence")) {
        evidence.addAll(diaIds(ev.asText()));
      }
      JsonNode beamType = q.path("beam_type");
      out.add(
          new Question(
              q.path("question").asText(),
              answer.isMissingNode() ? "" : answer.asText(),
              evidence,
              q.path("category").asInt(),
              beamType.isTextual() && !beamType.asText().isBlank()
                  ? Optional.of(beamType.asText().strip())
                  : Optional.empty()));
    }
    return out;
  }

  /**
   * The dia_ids in one reference: usually one id, but the data also joins several in one string
   * ({@code "D8:6; D9:17"}), so it is split on commas, semicolons and whitespace.
   */
  static List<String> diaIds(String reference) {
    List<String> ids = new ArrayList<>();
    for (String part : reference.split("[,;\\s]+", -1)) {
      if (!part.isBlank()) {
        ids.add(part.trim());
      }
    }
    return ids;
  }

  private static List<Observation> observations(JsonNode obs) {
    List<Observation> out = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> sessions = obs.properties().iterator();
    while (sessions.hasNext()) {
      Map.Entry<String, JsonNode> s = sessions.next();
      Matcher m = OBSERVATION_KEY.matcher(s.getKey());
      if (!m.matches()) {
        continue;
      }
      int session = Integer.parseInt(m.group(1));
      Iterator<Map.Entry<String, JsonNode>> speakers = s.getValue().properties().iterator();
      while (speakers.hasNext()) {
        Map.Entry<String, JsonNode> sp = speakers.next();
        for (JsonNode fact : sp.getValue()) {
          List<String> ids = new ArrayList<>();
          JsonNode ref = fact.path(1);
          if (ref.isArray()) {
            ref.forEach(r -> ids.add(r.asText()));
          } else if (!ref.isMissingNode()) {
            ids.addAll(diaIds(ref.asText()));
          }
          out.add(new Observation(session, sp.getKey(), fact.path(0).asText(), ids));
        }
      }
    }
    return out;
  }
}
