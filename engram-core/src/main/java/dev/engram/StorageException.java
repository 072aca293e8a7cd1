package dev.engram;

/**
 * The store failed (I/O, SQL, index). The operation that raised it wrote nothing it did not
 * acknowledge.
 */
public class StorageException extends EngramException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageException(String message) {
    super(message);
  }
}
