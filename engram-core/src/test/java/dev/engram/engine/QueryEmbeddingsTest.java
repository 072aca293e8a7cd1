package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.EngramException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link QueryEmbeddings}: the work beside a query goes to another thread only while the running
 * mean of the query times is at least 1 ms; the mean follows the ticker (a scripted one, moved by
 * the scripted embedding) both ways. And {@link ClaimedTask}: run once, by whichever thread claims
 * it first.
 */
class QueryEmbeddingsTest {
  private final AtomicLong now = new AtomicLong();
  private final List<Runnable> handedOver = new ArrayList<>();

  /** Records what it is handed and runs none of it (a helper thread that has not started yet). */
  private final Executor recording = handedOver::add;

  private final QueryEmbeddings embeddings = new QueryEmbeddings(recording, now::get);

  private float[] embedTaking(long nanos) {
    return embeddings.embed(
        () -> {
          now.addAndGet(nanos);
          return new float[] {1f};
        },
        () -> {});
  }

  @Test
  void workBesideSlowQueriesGoesToAnotherThreadOnceTheirMeanPassesOneMillisecond() {
    assertThat(embedTaking(4_000_000)).containsExactly(1f); // mean 0 before: nothing handed over
    assertThat(handedOver).isEmpty();
    assertThat(embeddings.meanNanos()).isEqualTo(500_000);
    embedTaking(4_000_000); // mean 0.5 ms before
    assertThat(handedOver).isEmpty();
    assertThat(embeddings.meanNanos()).isEqualTo(937_500);
    embedTaking(4_000_000); // 0.94 ms before
    assertThat(handedOver).isEmpty();
    assertThat(embeddings.meanNanos()).isGreaterThanOrEqualTo(QueryEmbeddings.WORTH_NANOS);
    embedTaking(4_000_000); // 1.32 ms: handed over
    assertThat(handedOver).hasSize(1);
  }

  @Test
  void quickQueriesBringTheMeanBackAndKeepTheWorkOnTheSearchThread() {
    for (int i = 0; i < 10; i++) {
      embedTaking(5_000_000);
    }
    assertThat(handedOver).isNotEmpty();
    for (int i = 0; i < 30; i++) {
      embedTaking(10_000);
    }
    assertThat(embeddings.meanNanos()).isLessThan(QueryEmbeddings.WORTH_NANOS);
    int before = handedOver.size();
    embedTaking(10_000);
    assertThat(handedOver).hasSize(before);
  }

  @Test
  void aFailingQueryIsTimedAndThrownAsItWas() {
    EngramException failure = new EngramException("scripted embedder failure");
    assertThatThrownBy(
            () ->
                embeddings.embed(
                    () -> {
                      now.addAndGet(8_000_000);
                      throw failure;
                    },
                    () -> {}))
        .isSameAs(failure);
    assertThat(embeddings.meanNanos()).isEqualTo(1_000_000);
  }

  @Test
  void aClaimedTaskRunsOnceOnTheFirstThreadToClaimIt() {
    AtomicInteger runs = new AtomicInteger();
    ClaimedTask<Integer> task = new ClaimedTask<>(runs::incrementAndGet);
    assertThat(task.get()).isEqualTo(1); // not started elsewhere: the caller runs it
    task.run(); // a helper that comes late finds it claimed
    assertThat(task.get()).isEqualTo(1);
    assertThat(runs).hasValue(1);

    ClaimedTask<Integer> ahead = new ClaimedTask<>(runs::incrementAndGet);
    ahead.run(); // a helper that came first
    assertThat(ahead.get()).isEqualTo(2);
    assertThat(runs).hasValue(2);
  }

  @Test
  void aClaimedTasksFailureIsThrownAsItWasToTheThreadThatAsks() {
    IllegalStateException failure = new IllegalStateException("scripted index failure");
    ClaimedTask<Integer> task =
        new ClaimedTask<>(
            () -> {
              throw failure;
            });
    task.run(); // on a helper: the failure is kept for the caller
    assertThatThrownBy(task::get).isSameAs(failure);
  }
}
