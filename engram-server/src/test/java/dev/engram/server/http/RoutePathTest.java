package dev.engram.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RoutePathTest {
  private static Optional<Map<String, String>> match(String template, String path) {
    RoutePath route = RoutePath.of(template);
    List<String> segments = RoutePath.segments(path);
    return route.matches(segments) ? Optional.of(route.params(segments)) : Optional.empty();
  }

  @Test
  void literalPathsMatchExactlyTrailingSlashIncluded() {
    assertThat(match("/v1/ping/", "/v1/ping/")).contains(Map.of());
    assertThat(match("/v1/ping/", "/v1/ping")).isEmpty();
    assertThat(match("/v1/ping/", "/v1/ping//")).isEmpty();
    assertThat(match("/v1/ping/", "/V1/ping/")).isEmpty();
    assertThat(match("/healthz", "/healthz/")).isEmpty();
  }

  @Test
  void parametersAreWholeNonEmptySegmentsDecodedAfterTheMatch() {
    assertThat(match("/v1/memories/{memory_id}/", "/v1/memories/abc-1/"))
        .contains(Map.of("memory_id", "abc-1"));
    assertThat(match("/v2/entities/{entity_type}/{entity_id}/", "/v2/entities/user/ana%20maria/"))
        .contains(Map.of("entity_type", "user", "entity_id", "ana maria"));
    // An encoded slash stays inside its segment: it cannot reach another route's path.
    assertThat(match("/v1/memories/{memory_id}/", "/v1/memories/a%2Fb/"))
        .contains(Map.of("memory_id", "a/b"));
    assertThat(match("/v1/memories/{memory_id}/", "/v1/memories/%C3%A9l%C3%A8ve/"))
        .contains(Map.of("memory_id", "élève"));
    assertThat(match("/v1/memories/{memory_id}/", "/v1/memories//")).isEmpty();
    assertThat(match("/v1/memories/{memory_id}/", "/v1/memories/a/b/")).isEmpty();
    assertThat(match("/v1/memories/{memory_id}/history/", "/v1/memories/x/")).isEmpty();
  }

  @Test
  void aParameterThatIsNotPercentEncodedUtf8IsABadRequestNamingIt() {
    assertThatThrownBy(() -> match("/v1/memories/{memory_id}/", "/v1/memories/%C3%28/"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.detail()).isEqualTo("memory_id");
            });
    assertThatThrownBy(() -> match("/v1/memories/{memory_id}/", "/v1/memories/%G1/"))
        .isInstanceOf(ApiException.class);
  }
}
