package dev.engram.client;

import dev.engram.EngramException;

/**
 * The server answered with a status that no Engram exception describes (401 bad key, 403 role, 413,
 * 415, 500...). The message carries the server's {@code error} text; {@link #status()} the HTTP
 * status.
 */
public class RemoteCallException extends EngramException {
  private final int status;

  public RemoteCallException(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The HTTP status the server answered. */
  public int status() {
    return status;
  }
}
