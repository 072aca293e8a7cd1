package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScopeTest {

  @Test
  void trimsIdsAndBuildsMem0Key() {
    Scope s = Scope.of("  alice ", "bot&1", null);
    assertThat(s.userId()).contains("alice");
    assertThat(s.key()).isEqualTo("agent_id=bot%261&user_id=alice");
  }

  @Test
  void rejectsMissingBlankAndWhitespaceIds() {
    assertThatThrownBy(() -> Scope.of(null, null, null))
        .isInstanceOf(ValidationException.class)
        .hasMessage("scope: at least one of user_id, agent_id or run_id is required");
    assertThatThrownBy(() -> Scope.user("   "))
        .isInstanceOf(ValidationException.class)
        .hasMessage("user_id: must not be empty or blank");
    assertThatThrownBy(() -> Scope.agent("my bot"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("agent_id: 'my bot' contains whitespace");
    assertThatThrownBy(() -> Scope.run("x".repeat(300)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("run_id: is 300 characters long");
  }

  @Test
  void containsLetsUnsetIdsMatchAnything() {
    Scope alice = Scope.user("alice");
    assertThat(alice.contains("alice", "bot", "r1")).isTrue();
    assertThat(alice.contains("bob", null, null)).isFalse();
    assertThat(Scope.of("alice", "bot", null).contains("alice", null, null)).isFalse();
  }
}
