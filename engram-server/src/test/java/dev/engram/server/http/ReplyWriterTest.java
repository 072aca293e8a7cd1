package dev.engram.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which {@code Accept-Encoding} headers get a gzip reply. */
class ReplyWriterTest {
  @Test
  void gzipIsSentOnlyToAClientThatAcceptsIt() {
    assertThat(ReplyWriter.acceptsGzip(null)).isFalse();
    assertThat(ReplyWriter.acceptsGzip("")).isFalse();
    assertThat(ReplyWriter.acceptsGzip("identity")).isFalse();
    assertThat(ReplyWriter.acceptsGzip("br, zstd")).isFalse();
    assertThat(ReplyWriter.acceptsGzip("gzip")).isTrue();
    assertThat(ReplyWriter.acceptsGzip("gzip, deflate")).isTrue(); // mem0's Python client (httpx)
    assertThat(ReplyWriter.acceptsGzip("GZip;q=0.5, br")).isTrue();
    assertThat(ReplyWriter.acceptsGzip("*")).isTrue();
    assertThat(ReplyWriter.acceptsGzip("gzip;q=0")).isFalse();
    assertThat(ReplyWriter.acceptsGzip("gzip; q=0.000, br")).isFalse();
    assertThat(ReplyWriter.acceptsGzip("gzip;q=0.001")).isTrue();
  }
}
