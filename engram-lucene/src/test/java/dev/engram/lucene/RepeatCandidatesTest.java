package dev.engram.lucene;

import static dev.engram.lucene.Docs.ids;
import static dev.engram.lucene.Docs.query;
import static dev.engram.lucene.Docs.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.junit.jupiter.api.Test;

/**
 * {@link LuceneSearchIndex#repeatCandidates}: what the repeat check of the offline extractor reads
 * between writes, without refreshing the searchers. A real Lucene index throughout.
 */
class RepeatCandidatesTest extends LuceneIndexTestCase {
  private long seq;

  private void apply(IndexOp... ops) {
    index.apply(List.of(ops), ++seq, 1);
  }

  @Test
  void writesSinceTheLastRefreshAreFoundWithoutRefreshingInTheirOwnTenantAndScopeOnly() {
    apply(upsert("t", "m1", "alice likes green tea", "alice", DIM, 0));
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "tea", 5)))
        .containsExactly("m1"); // refreshes
    assertThat(index.unrefreshedWrites()).isZero();

    apply(
        upsert("t", "m2", "alice plays chess on sundays", "alice", DIM, 1),
        upsert("t", "m3", "bob plays chess on sundays", "bob", DIM, 2),
        upsert("t2", "m4", "alice plays chess on sundays", "alice", DIM, 3));
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "Alice plays chess", 3)))
        .containsExactly("m1", "m2");
    assertThat(ids(index.repeatCandidates(query("t", Scope.user("bob")), "plays chess", 3)))
        .containsExactly("m3");
    assertThat(ids(index.repeatCandidates(query("t2", ALICE), "chess", 3))).containsExactly("m4");
    assertThat(index.repeatCandidates(query("t", ALICE), "the", 3)).isEmpty();
    assertThat(index.unrefreshedWrites()).as("no refresh").isEqualTo(3);

    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "chess", 5)))
        .containsExactly("m2");
    assertThat(index.unrefreshedWrites()).isZero();
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "Alice plays chess", 3)))
        .containsExactly("m2", "m1");
  }

  @Test
  void ofTheWritesSinceTheLastRefreshTheKHoldingMostOfTheTermsComeBackNewestFirstAmongEquals() {
    apply(upsert("t", "seen", "alice likes chess books", "alice", DIM, 0));
    index.keyword(query("t", ALICE), IndexField.TEXT, "anything", 1);
    apply(
        upsert("t", "one", "alice went hiking", "alice", DIM, 1),
        upsert("t", "all", "alice plays chess daily", "alice", DIM, 2),
        upsert("t", "two", "alice plays the violin", "alice", DIM, 3),
        upsert("t", "two-newer", "alice plays the piano", "alice", DIM, 0));

    assertThat(ids(index.repeatCandidates(query("t", ALICE), "alice plays chess", 1)))
        .containsExactly("seen", "all");
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "alice plays chess", 3)))
        .containsExactly("seen", "all", "two-newer", "two");
  }

  @Test
  void aRemovedOrExpiredWriteIsLeftOutAndAChangedOneIsMatchedOnItsNewText() {
    index.keyword(query("t", ALICE), IndexField.TEXT, "anything", 1);
    apply(
        upsert("t", "gone", "alice plays chess", "alice", DIM, 0),
        new IndexOp.Upsert(
            Docs.stored(
                "t",
                Docs.item("old", "alice plays chess", "alice", null, Map.of(), Docs.TODAY),
                Docs.axis(DIM, 1))),
        upsert("t", "changed", "alice plays chess", "alice", DIM, 2));
    apply(
        new IndexOp.Remove("t", "gone"),
        upsert("t", "changed", "alice collects stamps", "alice", DIM, 2));

    assertThat(ids(index.repeatCandidates(query("t", ALICE), "plays chess", 3))).isEmpty();
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "stamps", 3)))
        .containsExactly("changed");
    assertThat(index.unrefreshedWrites()).isEqualTo(2);
  }

  @Test
  void writesChangedManyTimesAfterALookUpAreMatchedOnTheirLatestTextOnly() {
    index.keyword(query("t", ALICE), IndexField.TEXT, "anything", 1);
    for (int i = 0; i < 10; i++) {
      apply(upsert("t", "m" + i, "alice plays chess", "alice", DIM, i));
    }
    assertThat(index.repeatCandidates(query("t", ALICE), "chess", 20)).hasSize(10); // analysed now
    // each of the first eight rewritten three times: the dead writes outnumber the live ones, and
    // are dropped
    String[] texts = {"alice reads novels", "alice grows tomatoes", "alice bakes bread"};
    for (String text : texts) {
      for (int i = 0; i < 8; i++) {
        apply(upsert("t", "m" + i, text, "alice", DIM, i));
      }
      assertThat(ids(index.repeatCandidates(query("t", ALICE), text.substring(6), 20)))
          .containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7");
    }
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "chess", 20)))
        .containsExactlyInAnyOrder("m8", "m9");
    assertThat(index.repeatCandidates(query("t", ALICE), "novels tomatoes", 20)).isEmpty();
    assertThat(index.unrefreshedWrites()).isEqualTo(10);
  }

  @Test
  void aFilteredQueryAClearedIndexOrTooManyWritesRefreshInstead() {
    index.keyword(query("t", ALICE), IndexField.TEXT, "anything", 1);
    apply(upsert("t", "m1", "alice plays chess", "alice", DIM, 0));
    assertThat(
            ids(
                index.repeatCandidates(
                    query("t", ALICE, Filter.eq("user_id", "alice")), "chess", 3)))
        .containsExactly("m1");
    assertThat(index.unrefreshedWrites()).isZero();

    index.clear(2);
    apply(upsert("t", "m2", "alice plays chess again", "alice", DIM, 0));
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "chess", 3))).containsExactly("m2");
    assertThat(index.unrefreshedWrites()).isZero();

    List<IndexOp> many = new ArrayList<>();
    for (int i = 0; i < UnrefreshedWrites.CAPACITY + 1; i++) {
      many.add(upsert("t", "n" + i, "alice note " + i, "alice", DIM, i));
    }
    index.apply(many, ++seq, 2);
    assertThat(index.repeatCandidates(query("t", ALICE), "note", UnrefreshedWrites.CAPACITY + 10))
        .hasSize(UnrefreshedWrites.CAPACITY + 1);
    assertThat(index.unrefreshedWrites()).isZero();
  }

  @Test
  void aCommitAlsoMakesTheWritesVisibleToSearches() {
    index.keyword(query("t", ALICE), IndexField.TEXT, "anything", 1);
    apply(upsert("t", "m1", "alice plays chess", "alice", DIM, 0));
    assertThat(index.unrefreshedWrites()).isEqualTo(1);
    index.commit();
    assertThat(index.unrefreshedWrites()).isZero();
    assertThat(ids(index.repeatCandidates(query("t", ALICE), "chess", 3))).containsExactly("m1");
  }

  /**
   * Random writes, removals and refreshes: every memory of the scope that shares a term with the
   * text is returned, and anything else returned is a memory removed or changed since the last
   * refresh.
   */
  @Test
  void randomWritesNeverHideAMatchAndOnlyStaleOnesAreExtra() {
    Random random = new Random(42);
    String[] words = {
      "tea", "chess", "paris", "garden", "violin", "novel", "hiking", "bakery", "dog", "sunday"
    };
    String[] users = {"alice", "bob"};
    Map<String, String[]> live = new HashMap<>(); // id -> {user, text}
    Set<String> touchedSinceRefresh = new HashSet<>();
    try (EnglishAnalyzer analyzer = new EnglishAnalyzer()) {
      for (int step = 0; step < 400; step++) {
        int action = random.nextInt(10);
        String id = "m" + random.nextInt(60);
        if (action < 6) {
          String user = live.containsKey(id) ? live.get(id)[0] : users[random.nextInt(2)];
          String text =
              user
                  + " "
                  + words[random.nextInt(words.length)]
                  + " "
                  + words[random.nextInt(words.length)];
          if (live.containsKey(id)) {
            touchedSinceRefresh.add(id);
          }
          live.put(id, new String[] {user, text});
          apply(upsert("t", id, text, user, DIM, step));
        } else if (action < 8) {
          if (live.remove(id) != null) {
            touchedSinceRefresh.add(id);
          }
          apply(new IndexOp.Remove("t", id));
        } else if (action < 9) {
          index.keyword(query("t", ALICE), IndexField.TEXT, "refresh", 1);
          touchedSinceRefresh.clear();
        } else {
          String text =
              words[random.nextInt(words.length)] + " " + words[random.nextInt(words.length)];
          String user = users[random.nextInt(2)];
          Set<String> queryTerms =
              Set.copyOf(QueryTerms.analyze(analyzer, IndexFields.TEXT, text, 100));
          Set<String> expected = new HashSet<>();
          live.forEach(
              (mid, m) -> {
                if (m[0].equals(user)
                    && QueryTerms.analyze(analyzer, IndexFields.TEXT, m[1], 100).stream()
                        .anyMatch(queryTerms::contains)) {
                  expected.add(mid);
                }
              });
          Set<String> got =
              new HashSet<>(ids(index.repeatCandidates(query("t", Scope.user(user)), text, 100)));
          assertThat(got).as("step %d: %s for %s", step, text, user).containsAll(expected);
          Set<String> extra = new HashSet<>(got);
          extra.removeAll(expected);
          assertThat(touchedSinceRefresh).as("step %d", step).containsAll(extra);
        }
      }
    }
  }
}
