package dev.engram;

/** A memory id that does not exist in the caller's tenant. */
public class MemoryNotFoundException extends ValidationException {
  public MemoryNotFoundException(String id) {
    super("memory_id", "no memory with id '" + id + "'");
  }
}
