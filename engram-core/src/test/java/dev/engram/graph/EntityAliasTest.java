package dev.engram.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Scope;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Entity#aliases()}: canonical (no duplicates, never the normalised name), kept by every
 * copy.
 */
class EntityAliasTest {
  private static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2024-02-01T00:00:00Z");
  private final Entity melanie =
      new Entity(
          "e1",
          "Melanie Rose Smith",
          "melanie rose smith",
          "person",
          new float[] {1, 0},
          1,
          T0,
          T0,
          Scope.user("u1"));

  @Test
  void theOldConstructorHasNoAliases() {
    assertThat(melanie.aliases()).isEmpty();
    assertThat(melanie.knownAs("melanie rose smith")).isTrue();
    assertThat(melanie.knownAs("melanie smith")).isFalse();
  }

  @Test
  void withAliasAddsANewNameOnceAndKeepsTheDisplayName() {
    Entity once = melanie.withAlias("melanie smith", T1);
    assertThat(once.aliases()).containsExactly("melanie smith");
    assertThat(once.name()).isEqualTo("Melanie Rose Smith");
    assertThat(once.normalizedName()).isEqualTo("melanie rose smith");
    assertThat(once.updatedAt()).isEqualTo(T1);
    assertThat(once.mentions()).isEqualTo(1);
    assertThat(once.knownAs("melanie smith")).isTrue();
    assertThat(once.withAlias("melanie smith", T1.plusSeconds(1))).isSameAs(once);
    assertThat(melanie.withAlias("melanie rose smith", T1)).isSameAs(melanie);
    assertThat(once.withAlias("mel", T1).aliases()).containsExactly("melanie smith", "mel");
    assertThat(once).isNotEqualTo(melanie);
  }

  @Test
  void mentionedKeepsTheAliases() {
    Entity again = melanie.withAlias("mel", T1).mentioned(T1.plusSeconds(5));
    assertThat(again.aliases()).containsExactly("mel");
    assertThat(again.mentions()).isEqualTo(2);
  }

  @Test
  void theConstructorDropsDuplicatesAndTheNameAndRejectsBlanks() {
    Entity e =
        new Entity(
            "e1",
            "Melanie Rose Smith",
            "melanie rose smith",
            "person",
            new float[] {1, 0},
            1,
            T0,
            T0,
            Scope.user("u1"),
            Arrays.asList("mel", "melanie rose smith", "mel", "melanie smith"));
    assertThat(e.aliases()).containsExactly("mel", "melanie smith");
    assertThatThrownBy(() -> e.aliases().add("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(
            () ->
                new Entity(
                    "e1",
                    "M",
                    "m",
                    "person",
                    new float[] {1},
                    1,
                    T0,
                    T0,
                    Scope.user("u1"),
                    List.of(" ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("alias of entity e1");
    assertThatThrownBy(
            () ->
                new Entity(
                    "e1",
                    "M",
                    "m",
                    "person",
                    new float[] {1},
                    1,
                    T0,
                    T0,
                    Scope.user("u1"),
                    Arrays.asList("a", null)))
        .isInstanceOf(NullPointerException.class);
  }
}
