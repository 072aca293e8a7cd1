package dev.engram.engine;

import dev.engram.Scope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks that order the inference of adds to the same scope. A thread that needs the locks
 * of several scopes takes them with {@link #lockAll}, which takes each stripe once and in ascending
 * stripe order: a total order over the stripes, so two threads locking the same scopes in different
 * request orders cannot deadlock (two scopes may share a stripe).
 */
final class ScopeLocks {
  private final ReentrantLock[] stripes;

  ScopeLocks(int count) {
    stripes = new ReentrantLock[count];
    for (int i = 0; i < count; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  ReentrantLock lockFor(String tenant, Scope scope) {
    return stripes[stripe(tenant, scope)];
  }

  /**
   * Locks the stripes of these scopes, each once, in ascending stripe order, and returns them in
   * that order; release them with {@link #unlockAll}.
   */
  List<ReentrantLock> lockAll(String tenant, Collection<Scope> scopes) {
    TreeSet<Integer> order = new TreeSet<>();
    for (Scope s : scopes) {
      order.add(stripe(tenant, s));
    }
    List<ReentrantLock> held = new ArrayList<>(order.size());
    try {
      for (int i : order) {
        stripes[i].lock();
        held.add(stripes[i]);
      }
    } catch (RuntimeException | Error e) {
      unlockAll(held);
      throw e;
    }
    return held;
  }

  /** Releases locks taken by {@link #lockAll}, in reverse order. */
  static void unlockAll(List<ReentrantLock> held) {
    for (int i = held.size() - 1; i >= 0; i--) {
      held.get(i).unlock();
    }
  }

  private int stripe(String tenant, Scope scope) {
    int h = (tenant + '\u0000' + scope.key()).hashCode();
    return Math.floorMod(h, stripes.length);
  }
}
