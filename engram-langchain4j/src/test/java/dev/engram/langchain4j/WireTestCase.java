package dev.engram.langchain4j;

import org.junit.jupiter.api.AfterEach;

/**
 * The frame of the wire tests: a {@link StubServer} on 127.0.0.1 per test, started with the test's
 * instance and stopped after it, that the models under test talk to.
 */
abstract class WireTestCase {
  final StubServer stub = StubServer.start();

  @AfterEach
  final void stopStub() {
    stub.close();
  }
}
