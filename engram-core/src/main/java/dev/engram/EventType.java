package dev.engram;

/** What an add did to one memory. */
public enum EventType {
  ADD,
  UPDATE,
  DELETE,
  NOOP
}
