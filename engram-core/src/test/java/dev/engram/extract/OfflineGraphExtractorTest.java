package dev.engram.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.engram.Scope;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.GraphExtractor.ExtractedEntity;
import dev.engram.spi.GraphExtractor.ExtractedRelation;
import dev.engram.spi.UsageMeter;
import java.util.List;
import org.junit.jupiter.api.Test;

class OfflineGraphExtractorTest {
  private final OfflineGraphExtractor extractor = OfflineGraphExtractor.create();

  private GraphExtractor.Extraction extract(GraphExtractor.NewMemory... memories) {
    return extractor.extract(
        new GraphExtractor.Input(
            Scope.user("u"), List.of(), null, List.of(memories), new UsageMeter()));
  }

  @Test
  void capitalisedSpansAreNamesButSentenceWordsPronounsAndMonthsAreNot() {
    assertThat(
            OfflineGraphExtractor.spans("The trip to New York with Melanie's sister was in May."))
        .containsExactly("New York", "Melanie");
    assertThat(OfflineGraphExtractor.spans("I think She said Yesterday was fine")).isEmpty();
    assertThat(OfflineGraphExtractor.spans("Caroline joined the LGBTQ support group"))
        .containsExactly("Caroline", "LGBTQ");
  }

  @Test
  void memoriesLinkTheSpeakerAndTheNamesTheyMention() {
    GraphExtractor.Extraction ex =
        extract(
            new GraphExtractor.NewMemory("m1", "Caroline went to Paris with Melanie", "Caroline"),
            new GraphExtractor.NewMemory("m2", "Painted a sunrise", "Melanie"),
            new GraphExtractor.NewMemory("m3", "the weather was nice", null));
    assertThat(ex.entities())
        .extracting(ExtractedEntity::name, ExtractedEntity::type)
        .containsExactly(
            tuple("Caroline", "person"), tuple("Paris", "entity"), tuple("Melanie", "entity"));
    assertThat(ex.relations())
        .extracting(
            ExtractedRelation::source,
            ExtractedRelation::relation,
            ExtractedRelation::target,
            ExtractedRelation::fact,
            ExtractedRelation::memoryIds)
        .containsExactly(
            tuple(
                "Caroline",
                "related_to",
                "Paris",
                "Caroline went to Paris with Melanie",
                List.of("m1")),
            tuple(
                "Caroline",
                "related_to",
                "Melanie",
                "Caroline went to Paris with Melanie",
                List.of("m1")),
            tuple(
                "Paris",
                "related_to",
                "Melanie",
                "Caroline went to Paris with Melanie",
                List.of("m1")),
            tuple("Melanie", "mentioned_in", "Melanie", "Painted a sunrise", List.of("m2")));
    assertThat(extractor.judge(List.of(), new UsageMeter())).isEmpty();
  }
}
