package dev.engram.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.json.MemoryJson;
import org.junit.jupiter.api.Test;

/** Writing a filter back into mem0's JSON form gives the same filter when the server parses it. */
class FilterJsonTest {

  private static void roundTrips(String json) {
    Filter f = Mem0Filters.parse(json);
    assertThat(Mem0Filters.parse(FilterJson.write(f))).as(json).isEqualTo(f);
  }

  @Test
  void everyOperatorAndCombinationRoundTrips() {
    roundTrips("{\"topic\": \"food\"}");
    roundTrips("{\"stars\": {\"gte\": 3, \"lt\": 5}}");
    roundTrips("{\"topic\": {\"in\": [\"a\", \"b\"]}, \"flag\": true}");
    roundTrips("{\"topic\": {\"nin\": [\"a\"]}}");
    roundTrips("{\"tags\": \"*\"}");
    roundTrips("{\"NOT\": [{\"topic\": \"food\"}, {\"stars\": 1}]}");
    roundTrips(
        "{\"OR\": [{\"stars\": 1}, {\"AND\": [{\"role\": \"user\"}, {\"memory\": {\"icontains\": \"X\"}}]}]}");
    roundTrips(
        "{\"created_at\": {\"gt\": \"2024-05-01T10:00:00Z\"}, \"event_time\": {\"lte\": \"2023-06-01\"}}");
    roundTrips("{\"metadata.role\": \"x\", \"metadata.user_id\": \"y\", \"metadata.AND\": 1}");
  }

  @Test
  void theScopeStaysAtTheTopAndTheFilterIsNested() {
    Filter f = Mem0Filters.parse("{\"user_id\": \"bob\"}");
    assertThat(MemoryJson.write(FilterJson.scoped(Scope.user("alice").withAgent("coach"), f)))
        .isEqualTo(
            "{\"user_id\":\"alice\",\"agent_id\":\"coach\",\"AND\":[{\"AND\":[{\"user_id\":{\"eq\":\"bob\"}}]}]}");
    assertThat(MemoryJson.write(FilterJson.scoped(Scope.run("r1"), Filter.all())))
        .isEqualTo("{\"run_id\":\"r1\"}");
  }
}
