package dev.engram.engine;

import dev.engram.Scope;
import java.util.concurrent.locks.ReentrantLock;

/** Striped locks that order the inference of adds to the same scope. */
final class ScopeLocks {
  private final ReentrantLock[] stripes;

  ScopeLocks(int count) {
    stripes = new ReentrantLock[count];
    for (int i = 0; i < count; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  ReentrantLock lockFor(String tenant, Scope scope) {
    int h = (tenant + '\u0000' + scope.key()).hashCode();
    return stripes[Math.floorMod(h, stripes.length)];
  }
}
