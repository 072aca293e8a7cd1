package dev.engram.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
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
 * Reads memory records from an export, one at a time, without loading the whole input: an Engram export
 * ({@link Format#ENGRAM_JSONL}, see {@link MemoryRecordJson}) or a mem0 export ({@link Format#MEM0}, items read by
 * {@link Mem0MemoryJson}) in any of mem0's shapes: a JSON document {@code {"results": [...]}} (or
 * {@code {"memories": [...]}}), a bare JSON array, or JSON Lines of items.
 *
 * <p>The format is detected from the content unless given: a first line that is an Engram header means an Engram
 * export; anything else is read as mem0. Blank lines are skipped. Every error is a {@link ValidationException} that
 * names where the input went wrong ({@code line 7}, {@code results[3] (line 40)}); {@link #position()} names the
 * last record returned. Not thread-safe; closing closes the underlying reader.
 */
public final class MemoryRecordReader implements Iterator<MemoryRecord>, Closeable {
  /** The longest first line the format detection looks at (16 MiB). */
  private static final int MAX_FIRST_LINE = 16 << 20;

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
      throw new ValidationException("format", "unknown export format '" + name + "' (expected engram-jsonl or"
          + " mem0)");
    }
  }

  private final BufferedReader in;
  private final Format format;
  private final Optional<Scope> defaultScope;
  /** Non-null when reading the elements of a JSON array (mem0 document or bare array). */
  private final JsonParser parser;
  private final String arrayName;
  private int lineNumber;
  private int index = -1;
  private String position = "start";
  private MemoryRecord next;
  private boolean done;

  private MemoryRecordReader(BufferedReader in, Format format, Optional<Scope> defaultScope, JsonParser parser,
                             String arrayName, int skippedLines) {
    this.lineNumber = skippedLines;
    this.in = in;
    this.format = format;
    this.defaultScope = defaultScope;
    this.parser = parser;
    this.arrayName = arrayName;
  }

  /**
   * Opens a reader over an export.
   *
   * @param in           the input (UTF-8 text); closed by {@link #close()}
   * @param format       the format, or empty to detect it
   * @param defaultScope for mem0 items that have no user, agent or run id; ignored for Engram exports
   * @throws ValidationException if the input is empty, an Engram export has no valid header, or a mem0 document
   *                             has no array of memories
   */
  public static MemoryRecordReader open(Reader in, Optional<Format> format, Optional<Scope> defaultScope) {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(defaultScope, "defaultScope");
    BufferedReader buffered = in instanceof BufferedReader b ? b : new BufferedReader(in, 1 << 16);
    try {
      return open(buffered, format, defaultScope);
    } catch (IOException e) {
      close(buffered, e);
      throw new UncheckedIOException("cannot read the export: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      close(buffered, e);
      throw e;
    }
  }

  private static MemoryRecordReader open(BufferedReader in, Optional<Format> format, Optional<Scope> scope)
      throws IOException {
    int[] skippedLines = new int[1];
    int first = firstSignificantChar(in, skippedLines);
    return open(in, format, scope, first, skippedLines[0]);
  }

  private static MemoryRecordReader open(BufferedReader in, Optional<Format> format, Optional<Scope> scope,
                                         int first, int skippedLines) throws IOException {
    if (first < 0) {
      throw new ValidationException("file", "is empty: an export holds at least a header line or a JSON value");
    }
    if (first == '[') {
      requireMem0(format, "a JSON array");
      return arrayReader(in, scope, "", skippedLines);
    }
    in.mark(MAX_FIRST_LINE);
    String firstLine = in.readLine();
    in.reset();
    JsonNode head = completeJson(firstLine);
    if (MemoryRecordJson.isHeader(head) || format.equals(Optional.of(Format.ENGRAM_JSONL))) {
      if (format.equals(Optional.of(Format.MEM0))) {
        throw new ValidationException("format", "the file is an Engram export (its first line is an Engram"
            + " header); import it with format engram-jsonl");
      }
      MemoryRecordReader r = new MemoryRecordReader(in, Format.ENGRAM_JSONL, scope, null, null, skippedLines);
      r.readHeader();
      return r;
    }
    if (head == null || head.has("results") || head.has("memories")) {
      return arrayReader(in, scope, null, skippedLines);
    }
    return new MemoryRecordReader(in, Format.MEM0, scope, null, null, skippedLines);
  }

  private static void requireMem0(Optional<Format> format, String what) {
    if (format.equals(Optional.of(Format.ENGRAM_JSONL))) {
      throw new ValidationException("file", "is " + what + ", not an Engram export (JSON Lines with a header)");
    }
  }

  /** A reader of a mem0 array: the input itself ({@code name} "") or the document's results/memories array. */
  private static MemoryRecordReader arrayReader(BufferedReader in, Optional<Scope> scope, String name,
                                                int skippedLines) throws IOException {
    JsonParser p = MemoryJson.mapper().getFactory().createParser(in);
    try {
      JsonToken t = p.nextToken();
      if (name != null) {
        return new MemoryRecordReader(in, Format.MEM0, scope, p, name, skippedLines);
      }
      if (t != JsonToken.START_OBJECT) {
        throw new ValidationException("file", "is not a mem0 export (expected a JSON object, array or lines)");
      }
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        t = p.nextToken();
        if (("results".equals(field) || "memories".equals(field)) && t == JsonToken.START_ARRAY) {
          return new MemoryRecordReader(in, Format.MEM0, scope, p, field, skippedLines);
        }
        p.skipChildren();
      }
      throw new ValidationException("file", "is a JSON document without a \"results\" (or \"memories\") array of"
          + " mem0 memories");
    } catch (JsonProcessingException e) {
      throw new ValidationException("line " + (skippedLines + e.getLocation().getLineNr()), "malformed JSON: "
          + e.getOriginalMessage());
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
      next = parser == null ? readLine() : readElement();
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

  private void readHeader() throws IOException {
    String line;
    do {
      line = in.readLine();
      lineNumber++;
    } while (line != null && line.isBlank());
    String path = "line " + lineNumber;
    MemoryRecordJson.checkHeader(path, JsonInput.tree(path, stripBom(line)));
  }

  private MemoryRecord readLine() {
    try {
      String line;
      do {
        line = in.readLine();
        lineNumber++;
      } while (line != null && line.isBlank());
      if (line == null) {
        return null;
      }
      position = "line " + lineNumber;
      JsonNode node = JsonInput.tree(position, stripBom(line));
      return format == Format.ENGRAM_JSONL ? MemoryRecordJson.parse(position, node)
          : Mem0MemoryJson.parse(position, node, defaultScope);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the export after " + position + ": " + e.getMessage(), e);
    }
  }

  private MemoryRecord readElement() {
    try {
      JsonToken t = parser.nextToken();
      if (t == JsonToken.END_ARRAY || t == null) {
        return null;
      }
      index++;
      position = arrayName + "[" + index + "] (line "
          + (lineNumber + parser.currentTokenLocation().getLineNr()) + ")";
      JsonNode node = parser.readValueAsTree();
      return Mem0MemoryJson.parse(position, node, defaultScope);
    } catch (JsonProcessingException e) {
      String where = arrayName + "[" + Math.max(index, 0) + "] (line "
          + (lineNumber + e.getLocation().getLineNr()) + ")";
      throw new ValidationException(where, "malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the export after " + position + ": " + e.getMessage(), e);
    }
  }

  /** Skips a byte order mark and white space; counts the line breaks skipped into {@code lines[0]}. */
  private static int firstSignificantChar(BufferedReader in, int[] lines) throws IOException {
    while (true) {
      in.mark(1);
      int c = in.read();
      if (c < 0) {
        return -1;
      }
      if (c == '\n') {
        lines[0]++;
      }
      if (c == '\uFEFF' || Character.isWhitespace(c)) {
        continue;
      }
      in.reset();
      return c;
    }
  }

  /** The line as one complete JSON value, or null if it is not one (for example the first line of a document). */
  private static JsonNode completeJson(String line) {
    if (line == null || line.isBlank()) {
      return null;
    }
    try {
      return JsonInput.tree("line", stripBom(line));
    } catch (ValidationException e) {
      return null;
    }
  }

  private static String stripBom(String s) {
    return s != null && !s.isEmpty() && s.charAt(0) == '\uFEFF' ? s.substring(1) : s;
  }

  private static void close(Closeable c, Exception cause) {
    try {
      c.close();
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (parser != null) {
        parser.close();
      }
    } finally {
      in.close();
    }
  }

  @Override
  public String toString() {
    return "MemoryRecordReader[" + format.wireName().toLowerCase(Locale.ROOT) + " at " + position + "]";
  }
}
