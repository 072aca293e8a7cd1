package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.StorageException;
import java.io.EOFException;
import java.nio.file.NoSuchFileException;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.store.LockObtainFailedException;
import org.junit.jupiter.api.Test;

/** Which index open failures count as damage (the index is then recreated) and which are passed on. */
class IndexOpenerTest {

  @Test
  void unreadableOrMissingFilesAreDamage() {
    assertThat(IndexOpener.isDamage(new StorageException("could not open",
        new CorruptIndexException("checksum failed", "_0.cfs")))).isTrue();
    assertThat(IndexOpener.isDamage(new StorageException("could not open",
        new RuntimeException(new EOFException("read past EOF"))))).isTrue();
    assertThat(IndexOpener.isDamage(new StorageException("could not open",
        new NoSuchFileException("_3.si")))).isTrue();
  }

  @Test
  void otherFailuresAreNot() {
    assertThat(IndexOpener.isDamage(new StorageException("locked",
        new LockObtainFailedException("write.lock held")))).isFalse();
    assertThat(IndexOpener.isDamage(new IllegalArgumentException("dimension: must be positive"))).isFalse();
    assertThat(IndexOpener.isDamage(new StorageException("disk full"))).isFalse();
  }
}
