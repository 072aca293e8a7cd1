package dev.engram.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.ValidationException;
import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The export codec and reader: Engram's JSON Lines both ways, and mem0's export shapes in. */
class MemoryRecordReaderTest {
  private static final String HEADER =
      "{\"format\":\"engram-memories\",\"version\":1,\"tenant\":\"t\",\"scope\":null}";

  private static List<MemoryRecord> read(
      String text, Optional<MemoryRecordReader.Format> format, Optional<Scope> scope) {
    List<MemoryRecord> out = new ArrayList<>();
    try (MemoryRecordReader r = MemoryRecordReader.open(new StringReader(text), format, scope)) {
      r.forEachRemaining(out::add);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  private static List<MemoryRecord> read(String text) {
    return read(text, Optional.empty(), Optional.empty());
  }

  @Test
  void engramRecordsRoundTripExactly() {
    Instant created = Instant.parse("2024-05-01T10:00:00.123456789Z");
    Instant updated = Instant.parse("2024-05-02T11:00:00Z");
    MemoryItem item =
        new MemoryItem(
            "m-1",
            "Alice plays the cello",
            Hashes.md5("Alice plays the cello"),
            Map.of(
                "stars",
                5,
                "big",
                12345678901234L,
                "ratio",
                0.25,
                "tags",
                List.of("a", "b"),
                "nested",
                Map.of("ok", true)),
            "alice",
            "helper",
            "r1",
            "Alice",
            Role.USER,
            created,
            updated,
            Instant.parse("2024-04-30T00:00:00Z"),
            List.of("msg-1", "msg-2"),
            LocalDate.of(2030, 1, 1));
    MemoryRecord live =
        MemoryRecord.live(
            item,
            List.of(
                new HistoryEntry(
                    0,
                    "m-1",
                    EventType.ADD,
                    null,
                    "Alice plays cello",
                    "Alice",
                    Role.USER,
                    created,
                    ChangePipelines.RAW),
                new HistoryEntry(
                    0,
                    "m-1",
                    EventType.UPDATE,
                    "Alice plays cello",
                    "Alice plays the cello",
                    null,
                    null,
                    updated,
                    ChangePipelines.UPDATE)));
    MemoryRecord deleted =
        MemoryRecord.deleted(
            "m-2",
            List.of(
                new HistoryEntry(
                    0,
                    "m-2",
                    EventType.ADD,
                    null,
                    "gone",
                    null,
                    null,
                    created,
                    ChangePipelines.RAW),
                new HistoryEntry(
                    0,
                    "m-2",
                    EventType.DELETE,
                    "gone",
                    null,
                    null,
                    null,
                    updated,
                    ChangePipelines.DELETE)));
    String file =
        "\n"
            + MemoryJson.write(
                MemoryRecordJson.header("t", Optional.of(Scope.user("alice")), created))
            + "\n"
            + MemoryRecordJson.line(live)
            + "\n\n"
            + MemoryRecordJson.line(deleted)
            + "\n";

    assertThat(read(file)).containsExactly(live, deleted);
    assertThat(MemoryRecordJson.line(live)).doesNotContain("\n");
  }

  @Test
  void engramErrorsNameTheLineAndTheField() {
    String good =
        "{\"id\":\"m-1\",\"memory\":\"x\",\"user_id\":\"u\",\"created_at\":\"2024-01-01T00:00:00Z\","
            + "\"updated_at\":\"2024-01-01T00:00:00Z\",\"history\":[{\"event\":\"ADD\",\"new_memory\":\"x\","
            + "\"created_at\":\"2024-01-01T00:00:00Z\"}]}";
    assertThatThrownBy(() -> read(HEADER + "\n" + good + "\n{\"id\":"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("line 3: malformed JSON");
    assertThatThrownBy(() -> read(HEADER + "\n" + good.replace("\"ADD\"", "\"NOOP\"")))
        .hasMessage("line 2.history[0].event: must be ADD, UPDATE or DELETE, got 'NOOP'");
    assertThatThrownBy(
            () ->
                read(
                    HEADER
                        + "\n"
                        + good.replace("\"history\":[{", "\"history\":[]")
                            .replace(
                                "\"event\":\"ADD\",\"new_memory\":\"x\",\"created_at\":\"2024-01-01T00:00:00Z\"}]",
                                "")))
        .hasMessageContaining("line 2.history: must hold at least one row");
    assertThatThrownBy(() -> read(HEADER + "\n" + good.replace("\"u\"", "7")))
        .hasMessage("line 2.user_id: must be a string, got 7");
    assertThatThrownBy(() -> read(HEADER + "\n" + good.replace("\"memory\":\"x\",", "")))
        .hasMessage("line 2.memory: is required");
    assertThatThrownBy(
            () -> read(good, Optional.of(MemoryRecordReader.Format.ENGRAM_JSONL), Optional.empty()))
        .hasMessageStartingWith("line 1: is not an Engram export header");
    assertThatThrownBy(
            () ->
                read(
                    HEADER + "\n" + good,
                    Optional.of(MemoryRecordReader.Format.MEM0),
                    Optional.empty()))
        .hasMessageContaining("the file is an Engram export");
    assertThatThrownBy(() -> read("  \n")).hasMessageContaining("file: is empty");
  }

  @Test
  void historyRowsOfAnOlderExportWithoutAPipelineReadAsUnknown() {
    String older =
        "{\"id\":\"m-1\",\"memory\":\"x\",\"user_id\":\"u\",\"created_at\":\"2024-01-01T00:00:00Z\","
            + "\"updated_at\":\"2024-01-01T00:00:00Z\",\"history\":[{\"event\":\"ADD\",\"new_memory\":\"x\","
            + "\"created_at\":\"2024-01-01T00:00:00Z\"},{\"event\":\"UPDATE\",\"old_memory\":\"w\",\"new_memory\":\"x\","
            + "\"created_at\":\"2024-01-01T00:00:00Z\",\"pipeline\":null}]}";
    assertThat(read(HEADER + "\n" + older).get(0).history())
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.UNKNOWN, ChangePipelines.UNKNOWN);

    String current = older.replace("\"pipeline\":null", "\"pipeline\":\"consolidate\"");
    assertThat(read(HEADER + "\n" + current).get(0).history())
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.UNKNOWN, ChangePipelines.CONSOLIDATE);
    assertThatThrownBy(
            () ->
                read(
                    HEADER
                        + "\n"
                        + older.replace("\"pipeline\":null", "\"pipeline\":\"Not A Name\"")))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("line 2.history[1].pipeline: must be a pipeline name");
    assertThatThrownBy(
            () -> read(HEADER + "\n" + older.replace("\"pipeline\":null", "\"pipeline\":7")))
        .hasMessage("line 2.history[1].pipeline: must be a string, got 7");
  }

  @Test
  void mem0OpenSourceItemsInJsonLinesAndCamelCase() {
    String python =
        "{\"id\":\"a1\",\"memory\":\"Likes tea\",\"hash\":\"ignored\",\"metadata\":null,"
            + "\"created_at\":\"2024-07-20T08:02:03.123456+00:00\",\"updated_at\":null,\"user_id\":\"alex\","
            + "\"actor_id\":\"Alex\",\"role\":\"user\",\"attributed_to\":\"user\"}";
    String typescript =
        "{\"id\":\"a2\",\"memory\":\"Runs daily\",\"metadata\":{\"k\":1},"
            + "\"createdAt\":\"2024-07-21T08:00:00.000Z\",\"updatedAt\":\"2024-07-22T08:00:00.000Z\",\"userId\":\"alex\","
            + "\"runId\":\"s1\",\"expirationDate\":\"2030-01-01T00:00:00Z\"}";
    List<MemoryRecord> records = read(python + "\n" + typescript + "\n");

    MemoryItem tea = records.get(0).memory().orElseThrow();
    assertThat(tea.hash()).isEqualTo(Hashes.md5("Likes tea"));
    assertThat(tea.createdAt()).isEqualTo(Instant.parse("2024-07-20T08:02:03.123456Z"));
    assertThat(tea.updatedAt()).isEqualTo(tea.createdAt());
    assertThat(tea.metadata()).isEqualTo(Map.of("attributed_to", "user"));
    assertThat(tea.actorId()).isEqualTo("Alex");
    assertThat(tea.role()).isEqualTo(Role.USER);
    assertThat(records.get(0).history())
        .containsExactly(
            new HistoryEntry(
                0,
                "a1",
                EventType.ADD,
                null,
                "Likes tea",
                "Alex",
                Role.USER,
                tea.createdAt(),
                ChangePipelines.IMPORT));
    MemoryItem runs = records.get(1).memory().orElseThrow();
    assertThat(runs.scope()).isEqualTo(Scope.of("alex", null, "s1"));
    assertThat(runs.expirationDate()).isEqualTo(LocalDate.of(2030, 1, 1));
    assertThat(runs.updatedAt()).isEqualTo(Instant.parse("2024-07-22T08:00:00Z"));
  }

  @Test
  void mem0ArraysAndDocumentsStreamTheirItems() {
    String item =
        "{\"id\":\"%s\",\"memory\":\"fact %s\",\"agent_id\":\"bot\",\"created_at\":\"2024-01-01T00:00:00Z\"}";
    String array =
        "[\n" + item.formatted("x1", "one") + ",\n" + item.formatted("x2", "two") + "\n]";
    assertThat(read(array)).extracting(MemoryRecord::id).containsExactly("x1", "x2");
    String document =
        "{\n  \"count\": 2,\n  \"next\": null,\n  \"meta\": {\"a\": [1, 2]},\n  \"results\": [\n    "
            + item.formatted("y1", "one")
            + ",\n    "
            + item.formatted("y2", "two")
            + "\n  ]\n}\n";
    assertThat(read(document)).extracting(MemoryRecord::id).containsExactly("y1", "y2");
    assertThat(read("{\"results\": [" + item.formatted("z1", "one") + "]}"))
        .extracting(MemoryRecord::id)
        .containsExactly("z1");

    assertThatThrownBy(() -> read(document.replace("\"agent_id\":\"bot\",", "")))
        .hasMessageStartingWith("results[0] (line 6): has no user_id, agent_id or run_id");
    assertThat(
            read(
                document.replace("\"agent_id\":\"bot\",", ""),
                Optional.empty(),
                Optional.of(Scope.user("dflt"))))
        .allSatisfy(r -> assertThat(r.memory().orElseThrow().userId()).isEqualTo("dflt"));
    assertThatThrownBy(() -> read(array.replace("\"memory\":\"fact two\",", "")))
        .hasMessage("[1] (line 3).memory: is required");
    assertThatThrownBy(() -> read(array.replace("}\n]", "")))
        .hasMessageStartingWith("[1] (line 3): malformed JSON");
    assertThatThrownBy(() -> read("{\"count\": 0}\n{\"x\": 1}"))
        .hasMessageStartingWith("line 1: is not an export");
    assertThatThrownBy(() -> read("\n{\n\"count\": 0, \"results\": 3\n}"))
        .hasMessageContaining("line 2: is not an export")
        .hasMessageContaining("\"results\" array");
    assertThatThrownBy(() -> read(item.formatted("v1", "x") + "\n{\"id\":\"v2\",\n"))
        .hasMessageStartingWith("line 2: malformed JSON (at line 3)");
    assertThatThrownBy(() -> read(item.formatted("v1", "x") + "\n[1]\n"))
        .hasMessage("line 2: must be a JSON object (one memory), not [");
    String oneLine =
        "{\"count\":2000,\"results\":["
            + String.join(
                ",",
                java.util.stream.IntStream.range(0, 2000)
                    .mapToObj(i -> item.formatted("n" + i, "number " + i))
                    .toList())
            + "]}";
    try (MemoryRecordReader r =
        MemoryRecordReader.open(new StringReader(oneLine), Optional.empty(), Optional.empty())) {
      long n = 0;
      while (r.hasNext()) {
        r.next();
        n++;
      }
      assertThat(n).isEqualTo(2000);
      assertThat(r.position()).isEqualTo("results[1999] (line 1)");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThatThrownBy(
            () ->
                read(item.formatted("w1", "x").replace("}", ",\"metadata\":{\"user_id\":\"u\"}}")))
        .hasMessage("line 1.metadata.user_id: identity keys belong in the scope, not in metadata");
  }

  @Test
  void theServersRecordsCarryHistorySequencesAndAFileDoesNot() {
    Instant at = Instant.parse("2024-05-01T10:00:00Z");
    MemoryRecord r =
        MemoryRecord.deleted(
            "m-9",
            List.of(
                new HistoryEntry(41, "m-9", EventType.ADD, null, "gone", null, null, at, "raw"),
                new HistoryEntry(
                    57, "m-9", EventType.DELETE, "gone", null, null, null, at, "delete")));

    assertThat(MemoryRecordJson.parse("line 2", MemoryRecordJson.recordWithSequences(r)))
        .isEqualTo(r);
    assertThat(MemoryRecordJson.record(r).path("history").get(0).has("seq")).isFalse();
    assertThat(MemoryRecordJson.parse("line 2", MemoryRecordJson.record(r)).history())
        .extracting(HistoryEntry::seq)
        .containsExactly(0L, 0L);

    var bad = MemoryRecordJson.recordWithSequences(r);
    ((com.fasterxml.jackson.databind.node.ObjectNode) bad.path("history").get(1)).put("seq", -1);
    assertThatThrownBy(() -> MemoryRecordJson.parse("line 2", bad))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("line 2.history[1].seq");
  }
}
