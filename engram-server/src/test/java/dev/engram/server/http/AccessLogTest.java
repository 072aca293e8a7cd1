package dev.engram.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The access log's writer thread: every line is written, in the order requests queued them, none is
 * lost when the queue is full (the request writes its own) or when the log closes (close writes
 * what waits), and an off log queues nothing.
 */
class AccessLogTest {
  private static AccessLog.Line line(int i) {
    return new AccessLog.Line("req-" + i, "POST", "/v3/memories/search/", 200, i, "abc123");
  }

  @Test
  void writesEveryLineInOrderOffTheRequestThreadAndCloseWritesWhatWaits() {
    List<String> written = Collections.synchronizedList(new ArrayList<>());
    List<String> writers = Collections.synchronizedList(new ArrayList<>());
    AccessLog log =
        new AccessLog(
            true,
            l -> {
              written.add(l);
              writers.add(Thread.currentThread().getName());
            });
    for (int i = 0; i < 1000; i++) {
      log.record(line(i));
    }
    log.close();
    assertThat(written).hasSize(1000);
    for (int i = 0; i < 1000; i++) {
      assertThat(written.get(i))
          .isEqualTo("req-" + i + " POST /v3/memories/search/ 200 " + i + "ms key=abc123");
    }
    assertThat(writers).containsOnly("engram-access-log");
    log.record(line(1000));
    assertThat(written).as("after close the request writes its line").hasSize(1001);
  }

  @Test
  void aFullQueueMakesTheRequestWriteItsOwnLineRatherThanLoseIt() throws InterruptedException {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> written = Collections.synchronizedList(new ArrayList<>());
    List<String> byRequests = Collections.synchronizedList(new ArrayList<>());
    AccessLog log =
        new AccessLog(
            true,
            l -> {
              if (Thread.currentThread().getName().equals("engram-access-log")) {
                stuck.countDown();
                try {
                  release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              } else {
                byRequests.add(l);
              }
              written.add(l);
            });
    log.record(line(0));
    assertThat(stuck.await(30, TimeUnit.SECONDS)).isTrue();
    // The writer holds line 0 and the queue is empty: CAPACITY lines fill it, the next 50 overflow.
    int total = 1 + AccessLog.CAPACITY + 50;
    for (int i = 1; i < total; i++) {
      log.record(line(i));
    }
    assertThat(byRequests).as("written by the requests while the writer is stuck").hasSize(50);
    release.countDown();
    log.close();
    assertThat(written).hasSize(total).doesNotHaveDuplicates();
  }

  @Test
  void aBusyServersLinesGatherAndAreWrittenTogetherInsteadOfWakingTheWriterForEach()
      throws InterruptedException {
    List<String> written = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch gathering = new CountDownLatch(1);
    CountDownLatch gathered = new CountDownLatch(1);
    CountDownLatch gatheringAgain = new CountDownLatch(1);
    List<Integer> writtenBeforeEachGather = Collections.synchronizedList(new ArrayList<>());
    AccessLog log =
        new AccessLog(
            true,
            written::add,
            () -> {
              writtenBeforeEachGather.add(written.size());
              if (writtenBeforeEachGather.size() == 1) {
                gathering.countDown();
                assertThat(gathered.await(30, TimeUnit.SECONDS)).isTrue();
              } else {
                gatheringAgain.countDown();
              }
            });
    log.record(line(0));
    assertThat(gathering.await(30, TimeUnit.SECONDS)).isTrue();
    // The writer has written line 0 and lets lines gather: these 100 queue without waking it.
    for (int i = 1; i <= 100; i++) {
      log.record(line(i));
    }
    assertThat(written).hasSize(1);
    gathered.countDown();
    assertThat(gatheringAgain.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(writtenBeforeEachGather)
        .as("one pause after line 0, the next after the 100 gathered lines, written together")
        .startsWith(1, 101);
    log.close();
    assertThat(written).hasSize(101);
    assertThat(written.get(100)).startsWith("req-100 ");
  }

  @Test
  void anOffLogWritesNothing() {
    List<String> written = new ArrayList<>();
    AccessLog log = new AccessLog(false, written::add);
    log.record(line(1));
    log.close();
    assertThat(written).isEmpty();
  }
}
