package dev.engram.lucene;

import static dev.engram.lucene.Docs.axis;
import static dev.engram.lucene.Docs.ids;
import static dev.engram.lucene.Docs.query;
import static dev.engram.lucene.Docs.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link LuceneSearchIndex#similarities} for memories whose documents a search read before (found
 * by the ids kept, {@link HitIds#locate}) and for the others (found by key): the cosines of the
 * query's own live memories only, whichever way each is found, across tenants that use the same id,
 * scopes, updates and removals.
 */
class SimilaritiesTest extends LuceneIndexTestCase {
  private static final Scope BOB = Scope.user("bob");

  @Test
  void aMemoryReadBeforeIsScoredOnlyWithinTheQuerysTenantAndScope() {
    index.apply(
        List.of(
            upsert("t1", "same", "tea with lemon", "alice", DIM, 0),
            upsert("t2", "same", "tea with milk", "alice", DIM, 1),
            upsert("t1", "bobs", "tea for bob", "bob", DIM, 0)),
        3,
        1);
    float[] q = axis(DIM, 0);
    // each search reads its hits' ids; the last one read of the id "same" is t2's
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "tea", 10)))
        .containsExactly("same");
    assertThat(ids(index.keyword(query("t1", BOB), IndexField.TEXT, "tea", 10)))
        .containsExactly("bobs");
    assertThat(ids(index.keyword(query("t2", ALICE), IndexField.TEXT, "tea", 10)))
        .containsExactly("same");

    assertThat(index.similarities(query("t1", ALICE), IndexField.TEXT, q, List.of("same", "bobs")))
        .isEqualTo(Map.of("same", 1.0));
    assertThat(index.similarities(query("t2", ALICE), IndexField.TEXT, q, List.of("same", "bobs")))
        .isEqualTo(Map.of("same", 0.0));
    assertThat(index.similarities(query("t1", BOB), IndexField.TEXT, q, List.of("same", "bobs")))
        .isEqualTo(Map.of("bobs", 1.0));

    // t1's read last: t2 still gets its own
    index.keyword(query("t1", ALICE), IndexField.TEXT, "tea", 10);
    assertThat(index.similarities(query("t2", ALICE), IndexField.TEXT, q, List.of("same")))
        .isEqualTo(Map.of("same", 0.0));
    assertThat(index.similarities(query("t1", ALICE), IndexField.TEXT, q, List.of("same")))
        .isEqualTo(Map.of("same", 1.0));
  }

  @Test
  void aMemoryChangedOrRemovedSinceItWasReadIsScoredAsItIsNow() {
    index.apply(
        List.of(
            upsert("t", "m1", "alice likes tea", "alice", DIM, 0),
            upsert("t", "m2", "alice drinks tea", "alice", DIM, 1),
            upsert("t", "kept", "alice keeps a diary", "alice", DIM, 3)),
        3,
        1);
    float[] q = axis(DIM, 0);
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "tea", 10)))
        .containsExactlyInAnyOrder("m1", "m2");
    assertThat(index.similarities(query("t", ALICE), IndexField.TEXT, q, List.of("m1", "m2")))
        .isEqualTo(Map.of("m1", 1.0, "m2", 0.0));

    index.apply(
        List.of(
            upsert("t", "m1", "alice likes green tea", "alice", DIM, 2),
            new IndexOp.Remove("t", "m2")),
        5,
        1);
    assertThat(index.similarities(query("t", ALICE), IndexField.TEXT, q, List.of("m1", "m2")))
        .isEqualTo(Map.of("m1", 0.0));
    // the new document read by a search, then found by its id
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "tea", 10)))
        .containsExactly("m1");
    assertThat(
            index.similarities(
                query("t", ALICE), IndexField.TEXT, axis(DIM, 2), List.of("m1", "m2", "none")))
        .isEqualTo(Map.of("m1", 1.0));
  }
}
