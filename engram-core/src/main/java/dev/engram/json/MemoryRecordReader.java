package dev.engram.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.MemoryRecord;
import dev.engram.Scope;
import dev.engram.ValidationException;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads memory records from an export, one at a time, without loading the whole input: an Engram
 * export ({@link Format#ENGRAM_JSONL}, see {@link MemoryRecordJson}) or a mem0 export ({@link
 * Format#MEM0}, items read by {@link Mem0MemoryJson}) in any of mem0's shapes: a JSON document
 * {@code {"results": [...]}} (or {@code {"memories": [...]}}), a bare JSON array, or JSON Lines of
 * items.
 *
 * <p>The format is detected from the content unless given: a first line that is an Engram header
 * means an Engram export; anything else is read as mem0. The input is read as a stream of JSON
 * tokens, so one record per line is the format's rule but not checked (white space between records,
 * blank lines included, is skipped). Every error is a {@link ValidationException} that names where
 * the input went wrong ({@code line 7}, {@code results[3] (line 40)}); {@link #position()} names
 * the last record returned. Not thread-safe; closing closes the underlying reader.
 */
public final class MemoryRecordReader implements Iterator<MemoryRecord>, Closeable {
  /** The formats of an export file. */
  public enum Format {
    /** Engram's own export: a header line and one {@link MemoryRecord} per line. */
    ENGRAM_JSONL("engram-jsonl"),
    /** mem0 memory items: a {@code {"results": [...]}} document, a JSON array, or JSON Lines. */
    MEM0("mem0");

    private final String wireName;

    Format(String wireName) {
      this.wireName = wireName;
    }

    /** The name used on the command line and in requests ({@code engram-jsonl}, {@code mem0}). */
    public String wireName() {
      return wireName;
    }

    /** Parses a wire name, case-insensitively. */
    public static Format parse(String name) {
      for (Format f : values()) {
        if (f.wireName.equalsIgnoreCase(name == null ? "" : name.trim())) {
          return f;
        }
      }
      throw new ValidationException(
          "format", "unknown export format '" + name + "' (expected engram-jsonl or" + " mem0)");
    }
  }

  private final JsonParser parser;
  private final Format format;
  private final Optional<Scope> defaultScope;

  /**
   * The name of the array being read ("" for a bare array), or null when reading a sequence of
   * objects (lines).
   */
  private final String arrayName;

  /**
   * A first object read while detecting the format, returned before the parser's next one; else
   * null.
   */
  private JsonNode pending;

  private int pendingLine;
  private int index = -1;
  private String position = "start";
  private MemoryRecord next;
  private boolean done;

  private MemoryRecordReader(
      JsonParser parser, Format format, Optional<Scope> defaultScope, String arrayName) {
    this.parser = parser;
    this.format = format;
    this.defaultScope = defaultScope;
    this.arrayName = arrayName;
  }

  /**
   * Opens a reader over an export.
   *
   * @param in the input (UTF-8 text); closed by {@link #close()}
   * @param format the format, or empty to detect it
   * @param defaultScope for mem0 items that have no user, agent or run id; ignored for Engram
   *     exports
   * @throws ValidationException if the input is empty or not JSON, an Engram export has no valid
   *     header, or a mem0 document has no array of memories
   */
  public static MemoryRecordReader open(
      Reader in, Optional<Format> format, Optional<Scope> defaultScope) {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(defaultScope, "defaultScope");
    JsonParser parser = null;
    try {
      parser = MemoryJson.mapper().getFactory().createParser(withoutByteOrderMark(in));
      return open(parser, format, defaultScope);
    } catch (JsonProcessingException e) {
      ValidationException v =
          new ValidationException(
              "line " + e.getLocation().getLineNr(), "malformed JSON: " + e.getOriginalMessage());
      closeAfter(parser != null ? parser : in, v);
      throw v;
    } catch (IOException e) {
      UncheckedIOException u =
          new UncheckedIOException("cannot read the export: " + e.getMessage(), e);
      closeAfter(parser != null ? parser : in, u);
      throw u;
    } catch (RuntimeException e) {
      closeAfter(parser != null ? parser : in, e);
      throw e;
    }
  }

  /**
   * Detects the format from the first JSON value, streaming: an array is mem0's; an object is read
   * field by field until a {@code results} (or {@code memories}) array, which makes it a mem0
   * document, or its end, which makes it an Engram header or the first mem0 item of JSON Lines. A
   * large one-line document is never held whole.
   */
  private static MemoryRecordReader open(
      JsonParser p, Optional<Format> format, Optional<Scope> scope) throws IOException {
    JsonToken t = p.nextToken();
    if (t == null) {
      throw new ValidationException(
          "file", "is empty: an export holds at least a header line or a JSON value");
    }
    if (t == JsonToken.START_ARRAY) {
      requireMem0(format, "a JSON array");
      return new MemoryRecordReader(p, Format.MEM0, scope, "");
    }
    if (t != JsonToken.START_OBJECT) {
      throw new ValidationException(
          "line " + p.currentTokenLocation().getLineNr(),
          "an export starts with a JSON" + " object or array, not " + p.getText());
    }
    int line = p.currentTokenLocation().getLineNr();
    ObjectNode first = MemoryJson.mapper().createObjectNode();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      t = p.nextToken();
      if (("results".equals(field) || "memories".equals(field)) && t == JsonToken.START_ARRAY) {
        requireMem0(format, "a JSON document with a \"" + field + "\" array");
        return new MemoryRecordReader(p, Format.MEM0, scope, field);
      }
      first.set(field, p.readValueAsTree());
    }
    if (MemoryRecordJson.isHeader(first) || format.equals(Optional.of(Format.ENGRAM_JSONL))) {
      if (format.equals(Optional.of(Format.MEM0))) {
        throw new ValidationException(
            "format",
            "the file is an Engram export (its first line is an Engram"
                + " header); import it with format engram-jsonl");
      }
      MemoryRecordJson.checkHeader("line " + line, first);
      return new MemoryRecordReader(p, Format.ENGRAM_JSONL, scope, null);
    }
    if (!first.has("memory") && !first.has("id")) {
      throw new ValidationException(
          "line " + line,
          "is not an export: expected an Engram export header, a mem0"
              + " document with a \"results\" array of memories, or a mem0 memory");
    }
    MemoryRecordReader r = new MemoryRecordReader(p, Format.MEM0, scope, null);
    r.pending = first;
    r.pendingLine = line;
    return r;
  }

  private static void requireMem0(Optional<Format> format, String what) {
    if (format.equals(Optional.of(Format.ENGRAM_JSONL))) {
      throw new ValidationException(
          "file", "is " + what + ", not an Engram export (JSON Lines with a header)");
    }
  }

  /** The format being read. */
  public Format format() {
    return format;
  }

  /** Where the last record returned came from ({@code line 7}, {@code results[3] (line 40)}). */
  public String position() {
    return position;
  }

  @Override
  public boolean hasNext() {
    if (next == null && !done) {
      next = arrayName == null ? readLine() : readElement();
      done = next == null;
    }
    return next != null;
  }

  @Override
  public MemoryRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    MemoryRecord r = next;
    next = null;
    return r;
  }

  /** The next object of a sequence of objects, one per line, named by the line it starts on. */
  private MemoryRecord readLine() {
    JsonNode node;
    int line;
    if (pending != null) {
      node = pending;
      line = pendingLine;
      pending = null;
    } else {
      line = -1;
      try {
        JsonToken t = parser.nextToken();
        if (t == null) {
          return null;
        }
        line = parser.currentTokenLocation().getLineNr();
        if (t != JsonToken.START_OBJECT) {
          throw new ValidationException(
              "line " + line, "must be a JSON object (one memory), not " + parser.getText());
        }
        node = parser.readValueAsTree();
      } catch (JsonProcessingException e) {
        int at = e.getLocation() == null ? line : e.getLocation().getLineNr();
        throw new ValidationException(
            "line " + (line > 0 ? line : at),
            "malformed JSON"
                + (line > 0 && at != line ? " (at line " + at + ")" : "")
                + ": "
                + e.getOriginalMessage());
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read the export after " + position + ": " + e.getMessage(), e);
      }
    }
    position = "line " + line;
    return format == Format.ENGRAM_JSONL
        ? MemoryRecordJson.parse(position, node)
        : Mem0MemoryJson.parse(position, node, defaultScope);
  }

  /** The next element of the array being read, named by its index and line. */
  private MemoryRecord readElement() {
    try {
      JsonToken t = parser.nextToken();
      if (t == JsonToken.END_ARRAY || t == null) {
        return null;
      }
      index++;
      position =
          arrayName + "[" + index + "] (line " + parser.currentTokenLocation().getLineNr() + ")";
      JsonNode node = parser.readValueAsTree();
      return Mem0MemoryJson.parse(position, node, defaultScope);
    } catch (JsonProcessingException e) {
      String where =
          arrayName + "[" + Math.max(index, 0) + "] (line " + e.getLocation().getLineNr() + ")";
      throw new ValidationException(where, "malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the export after " + position + ": " + e.getMessage(), e);
    }
  }

  /** The reader without a leading byte order mark. */
  private static Reader withoutByteOrderMark(Reader in) throws IOException {
    BufferedReader b = in instanceof BufferedReader r ? r : new BufferedReader(in, 1 << 16);
    b.mark(1);
    if (b.read() != '\uFEFF') {
      b.reset();
    }
    return b;
  }

  private static void closeAfter(Closeable c, Exception cause) {
    try {
      c.close();
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  /** Closes the parser and the underlying reader. */
  @Override
  public void close() throws IOException {
    parser.close();
  }

  @Override
  public String toString() {
    return "MemoryRecordReader["
        + format.wireName().toLowerCase(Locale.ROOT)
        + " at "
        + position
        + "]";
  }
}
