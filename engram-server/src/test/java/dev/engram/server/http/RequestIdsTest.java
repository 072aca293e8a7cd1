package dev.engram.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {
  @Test
  void eachIdIsADistinctRandomVersion4UuidInItsCanonicalText() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      String id = RequestIds.next();
      UUID parsed = UUID.fromString(id);
      assertThat(parsed.version()).isEqualTo(4);
      assertThat(parsed.variant()).isEqualTo(2);
      assertThat(parsed.toString()).isEqualTo(id);
      assertThat(seen.add(id)).as("a repeated id: %s", id).isTrue();
    }
  }
}
