package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.bench.locomo.Locomo.Conversation;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocomoReaderTest {

  static Path fixture() {
    try {
      return Path.of(LocomoReaderTest.class.getResource("/mini-locomo.json").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void readsSessionsPresentWithTheirTimesAndSkipsDatesWithoutTurns() {
    List<Conversation> all = LocomoReader.read(fixture());
    assertThat(all).hasSize(1);
    Conversation c = all.get(0);
    assertThat(c.sampleId()).isEqualTo("mini-1");
    assertThat(c.speakerA()).isEqualTo("Ada");
    assertThat(c.sessions()).extracting(Locomo.Session::number).containsExactly(1, 2);
    assertThat(c.sessions().get(0).dateTime()).isEqualTo(Instant.parse("2024-03-03T09:15:00Z"));
    assertThat(c.sessions().get(1).dateTime()).isEqualTo(Instant.parse("2024-04-12T18:40:00Z"));
    assertThat(c.turnCount()).isEqualTo(7);
    assertThat(c.sessions().get(1).turns().get(1).diaId()).isEqualTo("D2:2");
  }

  @Test
  void readsQuestionsWithNumericAndAdversarialAnswers() {
    Conversation c = LocomoReader.read(fixture()).get(0);
    assertThat(c.questions()).hasSize(6);
    assertThat(c.questions().get(4).answer()).isEqualTo("2024");
    assertThat(c.questions().get(5).answer()).isEqualTo("violin");
    assertThat(c.questions().get(5).category()).isEqualTo(5);
    // The fixture writes this evidence as one string "D1:1; D2:1", as conv-26 does once ("D8:6;
    // D9:17").
    assertThat(c.questions().get(3).evidence()).containsExactly("D1:1", "D2:1");
  }

  @Test
  void readsObservationsWithEveryFormOfDiaIdReference() {
    Conversation c = LocomoReader.read(fixture()).get(0);
    assertThat(c.observations()).hasSize(4);
    assertThat(c.observations())
        .filteredOn(o -> o.speaker().equals("Ben"))
        .singleElement()
        .satisfies(o -> assertThat(o.diaIds()).containsExactly("D1:2", "D1:4"));
    assertThat(c.observations())
        .filteredOn(o -> o.text().startsWith("Ada's cat"))
        .singleElement()
        .satisfies(o -> assertThat(o.diaIds()).containsExactly("D2:1", "D2:3"));
  }

  @Test
  void parsesSessionTimesAndRejectsOthers() {
    assertThat(LocomoReader.parseSessionTime("1:56 pm on 8 May, 2023"))
        .isEqualTo(Instant.parse("2023-05-08T13:56:00Z"));
    assertThat(LocomoReader.parseSessionTime("12:09 am on 13 September, 2023"))
        .isEqualTo(Instant.parse("2023-09-13T00:09:00Z"));
    assertThatThrownBy(() -> LocomoReader.parseSessionTime("yesterday"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'yesterday'");
  }
}
