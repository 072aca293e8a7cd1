package dev.engram.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.spi.RelevanceCalibration;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Each in-process model loads with its own fitted relevance map ({@code engram bench calibrate
 * --embedder NAME}), not the fallback.
 */
class FittedRelevanceTest {
  @Test
  void bgeSmallLoadsWithItsFittedMap() {
    RelevanceCalibration map = OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL).relevanceCalibration();
    assertThat(map.source()).startsWith("fitted by engram bench calibrate");
    assertThat(map)
        .isEqualTo(
            RelevanceCalibration.load(
                OnnxEmbedders.class, OnnxEmbedders.BGE_SMALL + ".relevance.properties"));
    assertThat(map.fitted()).isTrue();
    // a memory holding none of the query's words is as likely relevant as not somewhere above the
    // floor, where bge-small's answers lie; one holding all of them already at a lower cosine
    assertThat(map.cosineAt(0.5, 0.0))
        .isBetween(OnnxEmbedders.BGE_SMALL_RELEVANCE_FLOOR, 0.7)
        .isCloseTo(0.612, Offset.offset(0.01));
    assertThat(map.keywordSlope()).isPositive();
    assertThat(map.cosineAt(0.5, 1.0)).isLessThan(map.cosineAt(0.5, 0.0));
    // an unrelated memory (cosine 0, no word of the query) is almost certainly not relevant
    assertThat(map.probability(0.0, 0.0)).isLessThan(0.06);
  }

  @Test
  void miniLmLoadsItsOwnFittedMap() {
    RelevanceCalibration map = OnnxEmbedders.byName(OnnxEmbedders.MINILM).relevanceCalibration();
    assertThat(map.fitted()).isTrue();
    assertThat(map)
        .isEqualTo(
            RelevanceCalibration.load(
                OnnxEmbedders.class, OnnxEmbedders.MINILM + ".relevance.properties"))
        .isNotEqualTo(OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL).relevanceCalibration())
        .isNotEqualTo(RelevanceCalibration.fallback(0.0));
    // MiniLM's cosines spread wider than bge-small's narrow cone: as likely relevant as not at a
    // lower cosine, and its words count too
    assertThat(map.cosineAt(0.5, 0.0))
        .isCloseTo(0.345, Offset.offset(0.01))
        .isLessThan(
            OnnxEmbedders.byName(OnnxEmbedders.BGE_SMALL)
                .relevanceCalibration()
                .cosineAt(0.5, 0.0));
    assertThat(map.keywordSlope()).isPositive();
    assertThat(map.probability(0.0, 0.0)).isLessThan(0.5);
  }
}
