package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Fusion;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.LocomoBench.Mode;
import dev.engram.bench.locomo.LocomoBench.Options;
import dev.engram.testing.HashEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness on BEAM conversations converted to LoCoMo's format: questions keep their {@code
 * beam_type}, the reports score them per type beside the category, and a turn longer than the
 * library's former text limit (16,384 characters) is stored instead of aborting the run. A
 * synthetic file written by the test, with the hash test embedder (a fake: no model); the BEAM
 * sample itself (../shared/data/beam, kept out of the repository by its licence) is read by the
 * benchmarks, not by the tests, so the suite runs in a clone without it.
 */
class BeamFormatTest {
  /** Longer than the library's former text limit (16,384). */
  static final int LONG_TURN_CHARS = 20_000;

  @TempDir Path work;

  @Test
  void readsEachQuestionsBeamTypeAndTheLongestTurn() throws IOException {
    Conversation c = LocomoReader.read(syntheticBeamFile()).get(0);
    assertThat(c.speakerA()).isEqualTo("User");
    assertThat(c.longestTurnChars()).isEqualTo(LONG_TURN_CHARS);
    assertThat(c.questions())
        .extracting(Question::beamType)
        .containsExactly(
            Optional.of("information_extraction"),
            Optional.of("temporal_reasoning"),
            Optional.of("knowledge_update"),
            Optional.of("information_extraction"),
            Optional.of("abstention"));
    assertThat(c.questions().get(4).category()).isEqualTo(5);
    assertThat(LocomoReader.read(LocomoReaderTest.fixture()).get(0).questions())
        .as("LoCoMo's questions have no BEAM type")
        .allMatch(q -> q.beamType().isEmpty());
  }

  @Test
  void rawRunWithBaselinesStoresTheLongTurnAndReportsEachBeamType() throws IOException {
    Options options = new Options(syntheticBeamFile(), Mode.RAW, 10, Fusion.RRF, 0, work);
    LocomoReport r = LocomoBench.run(options, new HashEmbedder(), n -> {});

    // Abstention is category 5, left out: four questions, three types.
    assertThat(r.questions()).isEqualTo(4);
    assertThat(r.byBeamType())
        .containsOnlyKeys("information_extraction", "temporal_reasoning", "knowledge_update");
    assertThat(r.byBeamType().get("information_extraction").questions()).isEqualTo(2);
    assertThat(r.byCategory()).containsOnlyKeys("2", "3", "4");
    // Top-10 over five turns retrieves every turn, the long one (D1:2) included: it was stored.
    assertThat(r.byBeamType().get("information_extraction").evidenceRecall()).isEqualTo(1.0);
    assertThat(r.overall().extra()).containsEntry("evidence_recall_store", 1.0);
    assertThat(r.longestMessageChars()).isEqualTo(LONG_TURN_CHARS);
    assertThat(r.baselines())
        .extracting(LocomoReport.Baseline::name)
        .containsExactlyElementsOf(LocomoReportTest.BASELINES);
    assertThat(r.baselines()).allMatch(b -> b.evidenceRecall() > 0);

    JsonNode json = new ObjectMapper().readTree(r.toJson());
    assertThat(json.path("by_beam_type").path("temporal_reasoning").path("questions").asInt())
        .isEqualTo(1);
    assertThat(json.path("longest_message_chars").asInt()).isEqualTo(LONG_TURN_CHARS);
    Path saved = work.resolve("report.json");
    r.writeJson(saved);
    assertThat(LocomoReport.readJson(saved).byBeamType()).isEqualTo(r.byBeamType());

    String markdown = r.toMarkdown();
    assertThat(markdown)
        .contains("| BEAM type | questions |")
        .contains("| knowledge_update | 1 |")
        .contains("longest message 20000 characters")
        .contains("| 3 (open-domain) | 1 |");
  }

  @Test
  void extractRunStoresTheLongTurn() throws IOException {
    Options options =
        new Options(syntheticBeamFile(), Mode.EXTRACT, 10, Fusion.RRF, 0, work)
            .withBaselines(false);
    LocomoReport r = LocomoBench.run(options, new HashEmbedder(), n -> {});
    assertThat(r.questions()).isEqualTo(4);
    assertThat(r.byBeamType()).hasSize(3);
    assertThat(r.longestMessageChars()).isEqualTo(LONG_TURN_CHARS);
  }

  @Test
  void aLocomoReportHasNoBeamTypeTable() throws IOException {
    LocomoReport r =
        LocomoBench.run(
            new Options(LocomoReaderTest.fixture(), Mode.RAW, 10, Fusion.RRF, 0, work)
                .withBaselines(false),
            new HashEmbedder(),
            n -> {});
    assertThat(r.byBeamType()).isEmpty();
    assertThat(new ObjectMapper().readTree(r.toJson()).has("by_beam_type")).isFalse();
    assertThat(r.toMarkdown()).doesNotContain("BEAM type");
    // one conversation: scored apart in the JSON, no table of one row in the Markdown
    assertThat(r.byConversation()).containsOnlyKeys("mini-1");
    assertThat(r.byConversation().get("mini-1").questions()).isEqualTo(r.questions());
    assertThat(r.toMarkdown()).doesNotContain("| conversation |");
  }

  /**
   * A BEAM conversation in LoCoMo's format: user and assistant, two sessions with BEAM's
   * placeholder time of day, the assistant's first answer {@link #LONG_TURN_CHARS} long, and one
   * question of each kind the mapping gives (BEAM's own type in {@code beam_type}, its LoCoMo
   * category id in {@code category}), abstention without evidence.
   */
  private Path syntheticBeamFile() throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode conversation =
        json.createObjectNode().put("speaker_a", "User").put("speaker_b", "Assistant");
    conversation.put("session_1_date_time", "12:00 pm on 15 March, 2024");
    ArrayNode first = conversation.putArray("session_1");
    turn(
        first,
        "User",
        "D1:1",
        "I am building a Flask app on Python 3.11; the deadline is April 30.",
        1);
    String code = "def handler(request):\n    return render(request, 'index.html')\n\n";
    turn(
        first,
        "Assistant",
        "D1:2",
        ("Here is the full listing with every route of the app.\n" + code.repeat(LONG_TURN_CHARS))
            .substring(0, LONG_TURN_CHARS),
        2);
    turn(first, "User", "D1:3", "Please always answer with bullet points.", 3);
    conversation.put("session_2_date_time", "12:00 pm on 2 April, 2024");
    ArrayNode second = conversation.putArray("session_2");
    turn(second, "User", "D2:1", "I moved the deadline to May 15 because the API changed.", 4);
    turn(second, "Assistant", "D2:2", "Noted: the new deadline is May 15.", 5);
    ArrayNode qa = json.createArrayNode();
    question(
        qa,
        "Which route does the handler render?",
        "index.html",
        List.of("D1:2"),
        4,
        "information_extraction");
    question(
        qa,
        "How long after the first session did I move the deadline?",
        "18 days",
        List.of("D2:1"),
        2,
        "temporal_reasoning");
    question(
        qa,
        "What is the current deadline?",
        "May 15",
        List.of("D1:1", "D2:1"),
        3,
        "knowledge_update");
    question(
        qa,
        "Which Python version does the app use?",
        "3.11",
        List.of("D1:1"),
        4,
        "information_extraction");
    question(qa, "What database did I choose?", "Not mentioned", List.of(), 5, "abstention");
    ArrayNode file = json.createArrayNode();
    ObjectNode sample =
        file.addObject().put("sample_id", "beam-synthetic-1").put("beam_size", "100K");
    sample.set("conversation", conversation);
    sample.set("qa", qa);
    Path out = work.resolve("beam-synthetic.json");
    json.writeValue(out.toFile(), file);
    return out;
  }

  private static void turn(
      ArrayNode session, String speaker, String diaId, String text, int beamId) {
    session
        .addObject()
        .put("speaker", speaker)
        .put("dia_id", diaId)
        .put("text", text)
        .put("beam_id", beamId)
        .put("beam_turn", beamId)
        .put("beam_index", "1," + beamId);
  }

  private static void question(
      ArrayNode qa,
      String question,
      String answer,
      List<String> evidence,
      int category,
      String beamType) {
    ObjectNode q = qa.addObject().put("question", question).put("answer", answer);
    evidence.forEach(q.putArray("evidence")::add);
    q.put("category", category).put("beam_type", beamType).put("difficulty", "medium");
  }
}
