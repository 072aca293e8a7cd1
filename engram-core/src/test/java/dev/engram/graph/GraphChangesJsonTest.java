package dev.engram.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraphChangesJsonTest {
  private static final Instant T1 = Instant.parse("2024-05-01T10:00:00.123456789Z");
  private static final Instant T2 = Instant.parse("1969-12-31T23:59:59.000000001Z");

  private static GraphChanges sample() {
    Entity alice =
        new Entity(
            "e1",
            "Alice Smith",
            "alice smith",
            "person",
            new float[] {0.5f, -0.25f, Float.MIN_VALUE, 1e-30f, -0.0f},
            3,
            T2,
            T1,
            Scope.user("alice"),
            List.of("al", "ally smith"));
    Entity beijing =
        new Entity(
            "e2",
            "Beijing \"北京\"",
            "beijing",
            "place",
            new float[] {1f, 0f, 0f, 0f, 0f},
            1,
            T1,
            T1,
            Scope.of("alice", "travel-bot", "run-7"));
    Relation lives =
        new Relation(
            "r1",
            "e1",
            "lives_in",
            "e2",
            "Alice lives in Beijing",
            new float[] {0.1f, 0.2f, 0.3f, (float) Math.PI, Float.MAX_VALUE},
            T2,
            T1,
            T1,
            T1,
            List.of("m1", "m2"),
            List.of("mem-1"),
            Scope.user("alice"));
    Relation open =
        new Relation(
            "r2",
            "e2",
            "near",
            "e1",
            "fact",
            new float[] {0f, 0f, 0f, 0f, 1f},
            null,
            null,
            T2,
            null,
            List.of(),
            List.of(),
            Scope.agent("travel-bot"));
    return new GraphChanges(
        List.of(alice, beijing), List.of(lives, open), Set.of("r9", "r8"), Set.of("e7"));
  }

  @Test
  void roundTripIsExact() {
    GraphChanges changes = sample();
    GraphChanges back = GraphChangesJson.decode(GraphChangesJson.encode(changes));
    assertEquals(changes, back);
    assertArrayEquals(changes.entities().get(0).embedding(), back.entities().get(0).embedding());
    assertEquals(
        Float.floatToRawIntBits(-0.0f),
        Float.floatToRawIntBits(back.entities().get(0).embedding()[4]));
    assertEquals(List.of("al", "ally smith"), back.entities().get(0).aliases());
    assertEquals(T1, back.relations().get(0).invalidAt());
    assertEquals(Scope.of("alice", "travel-bot", "run-7"), back.entities().get(1).scope());
    assertEquals(null, back.relations().get(1).validAt());
  }

  @Test
  void emptyChangesRoundTrip() {
    assertEquals(
        GraphChanges.NONE, GraphChangesJson.decode(GraphChangesJson.encode(GraphChanges.NONE)));
    assertEquals(
        GraphChanges.deleting(Set.of("x")),
        GraphChangesJson.decode(GraphChangesJson.encode(GraphChanges.deleting(Set.of("x")))));
  }

  @Test
  void malformedTextIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> GraphChangesJson.decode("not json"));
    assertThrows(IllegalArgumentException.class, () -> GraphChangesJson.decode("[]"));
    assertThrows(
        IllegalArgumentException.class, () -> GraphChangesJson.decode("{\"entities\": []}"));
  }
}
