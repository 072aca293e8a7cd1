package dev.engram.bench.answer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.StorageException;
import dev.engram.spi.LanguageModel;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Model responses cached on disk so that reruns of an evaluation cost nothing. Keyed by the SHA-256
 * of the model id, the system prompt, the user prompt and a run number (so that a judge asked R
 * times keeps R answers); a hit returns exactly the stored text and calls nothing.
 *
 * <p>Storage: one JSON Lines file, one object {@code {"key", "model", "run", "text"}} per response,
 * appended and flushed as each response arrives (a crash loses at most the line being written; a
 * torn last line is skipped on the next open). Only usable responses are stored: callers pass what
 * their parser accepted. The file is locked while open: one process at a time. Thread-safe;
 * concurrent requests for the same key wait for one computation.
 */
public final class ResponseCache implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ResponseCache.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Map<String, String> entries = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<String>> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final FileChannel channel;
  private final FileLock lock;
  private final Writer writer;
  private boolean closed;

  private ResponseCache(Path file, FileChannel channel, FileLock lock, Writer writer) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
    this.writer = writer;
  }

  /** A cache kept in memory only (for tests and one-off runs). */
  public static ResponseCache inMemory() {
    return new ResponseCache(null, null, null, null);
  }

  /**
   * Opens (or creates, with its parent directories) the cache file {@code file} and loads its
   * entries.
   *
   * @throws StorageException if the file cannot be read or written, or another process holds it
   */
  public static ResponseCache open(Path file) {
    Objects.requireNonNull(file, "file");
    FileChannel channel = null;
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        throw new StorageException(
            "response cache "
                + file.toAbsolutePath()
                + " is in use by another process or"
                + " another open cache; close it first or choose another path");
      }
      byte[] content = readAll(channel);
      channel.position(channel.size());
      Writer writer = Channels.newWriter(channel, StandardCharsets.UTF_8);
      if (content.length > 0 && content[content.length - 1] != '\n') {
        writer.write('\n'); // end a torn last line so the next entry starts on its own line
      }
      ResponseCache cache = new ResponseCache(file, channel, lock, writer);
      cache.load(new String(content, StandardCharsets.UTF_8));
      return cache;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StorageException(
          "cannot open response cache " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /**
   * The cache key: hex SHA-256 of model id, system prompt, user prompt and run, separated by NUL
   * characters.
   */
  public static String key(String modelId, LanguageModel.Prompt prompt, int run) {
    Objects.requireNonNull(modelId, "modelId");
    Objects.requireNonNull(prompt, "prompt");
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      String material = modelId + '\0' + prompt.system() + '\0' + prompt.user() + '\0' + run;
      return HexFormat.of().formatHex(sha.digest(material.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }

  /** The stored response for this request, if any (does not count as a hit or miss). */
  public Optional<String> get(String modelId, LanguageModel.Prompt prompt, int run) {
    return Optional.ofNullable(entries.get(key(modelId, prompt, run)));
  }

  /**
   * The stored response for this request, or else the result of {@code compute} (a model call
   * returning text its caller could use), which is stored. Failures of {@code compute} propagate
   * and store nothing.
   */
  public String getOrCompute(
      String modelId, LanguageModel.Prompt prompt, int run, Supplier<String> compute) {
    Objects.requireNonNull(compute, "compute");
    String key = key(modelId, prompt, run);
    String hit = entries.get(key);
    if (hit != null) {
      hits.incrementAndGet();
      return hit;
    }
    CompletableFuture<String> mine = new CompletableFuture<>();
    CompletableFuture<String> running = inFlight.putIfAbsent(key, mine);
    if (running != null) {
      hits.incrementAndGet();
      try {
        return running.join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    }
    try {
      String stored =
          entries.get(key); // stored between our first look and taking the in-flight slot
      if (stored != null) {
        hits.incrementAndGet();
        mine.complete(stored);
        return stored;
      }
      misses.incrementAndGet();
      String text = Objects.requireNonNull(compute.get(), "computed response");
      append(key, modelId, run, text);
      entries.put(key, text);
      mine.complete(text);
      return text;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(key, mine);
    }
  }

  /** Responses stored. */
  public int size() {
    return entries.size();
  }

  /** Requests answered from the cache since it was opened. */
  public long hits() {
    return hits.get();
  }

  /** Requests that had to be computed since it was opened. */
  public long misses() {
    return misses.get();
  }

  /** The cache file, if this cache is on disk. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  @Override
  public synchronized void close() {
    if (closed || channel == null) {
      closed = true;
      return;
    }
    closed = true;
    try {
      writer.flush();
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new StorageException(
          "cannot close response cache " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
  }

  private synchronized void append(String key, String modelId, int run, String text) {
    if (closed) {
      throw new IllegalStateException("response cache " + file + " is closed");
    }
    if (writer == null) {
      return;
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("key", key);
    line.put("model", modelId);
    line.put("run", run);
    line.put("text", text);
    try {
      writer.write(JSON.writeValueAsString(line));
      writer.write('\n');
      writer.flush();
    } catch (IOException e) {
      throw new StorageException(
          "cannot write response cache " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
  }

  private void load(String content) {
    int skipped = 0;
    List<String> lines = content.lines().toList();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = JSON.readTree(line);
        if (node != null && node.path("key").isTextual() && node.path("text").isTextual()) {
          entries.put(node.get("key").asText(), node.get("text").asText());
        } else {
          skipped++;
        }
      } catch (IOException e) {
        skipped++;
      }
    }
    if (skipped > 0) {
      LOG.warn("response cache {}: skipped {} unreadable line(s)", file, skipped);
    }
  }

  private static byte[] readAll(FileChannel channel) throws IOException {
    long size = channel.size();
    if (size > Integer.MAX_VALUE - 8) {
      throw new IOException("file too large: " + size + " bytes");
    }
    ByteBuffer buffer = ByteBuffer.allocate((int) size);
    while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) >= 0) {
      // read through the locked channel (some platforms forbid reading a locked file through
      // another handle)
    }
    return Arrays.copyOf(buffer.array(), buffer.position());
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // already failing
      }
    }
  }
}
