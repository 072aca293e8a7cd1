package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user report: a few bytes overwritten in every file under {@code index/} of a small data
 * directory (write.lock included) made every later command fail with "could not bring the index up
 * to date". The record is intact, so list, get, history and search must work, and the index is
 * rebuilt from it.
 */
class DamagedIndexCommandTest {
  @TempDir Path dir;

  @Test
  void listAndSearchWorkAfterEveryIndexFileWasOverwritten() throws IOException {
    Path data = dir.resolve("data");
    Cli cli = new Cli(data);
    String lisbon = cli.addVerbatim("alice", "I moved to Lisbon");
    String tea = cli.addVerbatim("alice", "I drink green tea every morning");

    for (int round = 0; round < 2; round++) {
      assertThat(overwriteAFewBytesOfEveryFile(data.resolve("index"))).contains("write.lock");

      Cli.Result list = cli.run("list", "--user-id", "alice", "--json");
      assertThat(list.exitCode()).as("list: %s", list.err()).isZero();
      assertThat(ids(list.json().get("results"))).containsExactlyInAnyOrder(lisbon, tea);

      Cli.Result search = cli.run("search", "--user-id", "alice", "--json", "where does she live");
      assertThat(search.exitCode()).as("search: %s", search.err()).isZero();
      assertThat(search.json().get("results").get(0).get("id").asText()).isEqualTo(lisbon);

      assertThat(cli.run("get", "--json", tea).json().get("memory").asText())
          .isEqualTo("I drink green tea every morning");
      assertThat(cli.run("history", "--json", tea).exitCode()).isZero();
    }
  }

  private static List<String> ids(JsonNode results) {
    List<String> ids = new ArrayList<>();
    results.forEach(r -> ids.add(r.get("id").asText()));
    return ids;
  }

  /**
   * Overwrites 8 bytes in the middle of every file (at the start of an empty one); returns the file
   * names.
   */
  private static List<String> overwriteAFewBytesOfEveryFile(Path index) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.list(index)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
          raf.seek(raf.length() / 2);
          raf.write("XXXXXXXX".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        names.add(f.getFileName().toString());
      }
    }
    return names;
  }
}
