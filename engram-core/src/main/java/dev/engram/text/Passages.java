package dev.engram.text;

import dev.engram.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Splits a text into passages of at most a number of tokens, so that an embedder that reads only
 * its first few hundred tokens still reads all of a long text, one passage at a time.
 *
 * <p>A text within the limit is one passage. A longer one is cut at its paragraph breaks (blank
 * lines) first, then at line breaks, then at sentence ends, then between words, and as a last
 * resort between characters (never inside a surrogate pair nor before a combining mark); adjacent
 * pieces are packed greedily into passages of up to the limit. A fenced code block ({@code ```} or
 * {@code ~~~}) and a list item (a line starting with {@code -}, {@code *}, {@code +} or a number
 * followed by {@code .} or {@code )}, with its continuation lines) are never cut unless the block
 * or item alone exceeds the limit; then it is cut between its lines first.
 *
 * <p>Passages are in order, do not overlap, carry no surrounding whitespace, and together cover
 * every non-whitespace character of the text. Each is counted exactly, so each holds at most {@code
 * maxTokens} tokens, except a single character that alone counts more. The cost is linear in the
 * text's length: every level of the cut counts each character a bounded number of times.
 */
public final class Passages {
  /** Code points per piece when a word alone is too long (a URL, a base64 blob, CJK text). */
  private static final int WINDOW_CODE_POINTS = 16;

  private Passages() {}

  /**
   * The passages of {@code text}, each of at most {@code maxTokens} tokens by {@code counter}; none
   * for a blank text.
   *
   * @throws IllegalArgumentException if {@code maxTokens} is less than 1
   * @throws NullPointerException if {@code text} or {@code counter} is null
   */
  public static List<Passage> split(String text, int maxTokens, TokenCounter counter) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(counter, "counter");
    if (maxTokens < 1) {
      throw new IllegalArgumentException(
          "maxTokens: a passage holds at least 1 token, was " + maxTokens);
    }
    return new Splitter(text, maxTokens, counter).split();
  }

  /** How a piece too long for one passage is cut further. */
  private enum Cut {
    PARAGRAPHS,
    BLOCKS,
    LINES,
    SENTENCES,
    WORDS,
    WINDOWS,
    CODE_POINTS,
    NONE
  }

  /** A piece of the text, [start, end), and how to cut it if it is too long. */
  private record Span(int start, int end, Cut cut) {}

  /** A run of the text, [start, end), with its counted tokens. */
  private record Chunk(int start, int end, int tokens) {}

  private static final class Splitter {
    private final String text;
    private final int maxTokens;
    private final TokenCounter counter;
    private List<Block> blocks;

    Splitter(String text, int maxTokens, TokenCounter counter) {
      this.text = text;
      this.maxTokens = maxTokens;
      this.counter = counter;
    }

    List<Passage> split() {
      List<Chunk> chunks = pack(List.of(new Span(0, text.length(), Cut.PARAGRAPHS)));
      List<Passage> passages = new ArrayList<>(chunks.size());
      for (Chunk chunk : chunks) {
        int start = chunk.start();
        int end = chunk.end();
        while (start < end && Character.isWhitespace(text.charAt(start))) {
          start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
          end--;
        }
        if (start < end) {
          passages.add(new Passage(start, end, text.substring(start, end)));
        }
      }
      return List.copyOf(passages);
    }

    private int count(int start, int end) {
      return counter.count(text.substring(start, end));
    }

    /**
     * Packs adjacent pieces greedily into chunks of at most {@code maxTokens}, cutting a piece that
     * alone is too long by its {@link Cut} first. A chunk is planned on the sum of its pieces'
     * counts and then counted whole; if the whole counts more, it gives back pieces from its end.
     */
    private List<Chunk> pack(List<Span> pieces) {
      List<Chunk> items = new ArrayList<>();
      for (Span piece : pieces) {
        int tokens = count(piece.start(), piece.end());
        if (tokens <= maxTokens || piece.cut() == Cut.NONE) {
          items.add(new Chunk(piece.start(), piece.end(), tokens));
        } else {
          items.addAll(pack(cut(piece)));
        }
      }
      List<Chunk> packed = new ArrayList<>();
      int first = 0;
      while (first < items.size()) {
        int last = first;
        long planned = items.get(first).tokens();
        while (last + 1 < items.size() && planned + items.get(last + 1).tokens() <= maxTokens) {
          last++;
          planned += items.get(last).tokens();
        }
        int tokens = tokensOf(items, first, last);
        while (last > first && tokens > maxTokens) {
          last--;
          tokens = tokensOf(items, first, last);
        }
        packed.add(new Chunk(items.get(first).start(), items.get(last).end(), tokens));
        first = last + 1;
      }
      return packed;
    }

    private int tokensOf(List<Chunk> items, int first, int last) {
      return first == last
          ? items.get(first).tokens()
          : count(items.get(first).start(), items.get(last).end());
    }

    private List<Span> cut(Span piece) {
      return switch (piece.cut()) {
        case PARAGRAPHS -> paragraphs(piece);
        case BLOCKS -> blocks(piece);
        case LINES -> lines(piece);
        case SENTENCES -> sentences(piece);
        case WORDS -> words(piece);
        case WINDOWS -> windows(piece);
        case CODE_POINTS -> codePoints(piece);
        case NONE -> List.of(piece);
      };
    }

    /** Runs of blocks between blank lines; blank lines go with the paragraph before them. */
    private List<Span> paragraphs(Span piece) {
      List<Block> all = blocks();
      List<Span> spans = new ArrayList<>();
      int start = piece.start();
      boolean afterBlank = false;
      for (int b = firstBlockFrom(piece.start()); b < all.size(); b++) {
        Block block = all.get(b);
        if (block.start() >= piece.end()) {
          break;
        }
        if (block.kind() == Kind.BLANK) {
          afterBlank = true;
        } else {
          if (afterBlank && block.start() > start) {
            spans.add(new Span(start, block.start(), Cut.BLOCKS));
            start = block.start();
          }
          afterBlank = false;
        }
      }
      spans.add(new Span(start, piece.end(), Cut.BLOCKS));
      return spans;
    }

    /**
     * A paragraph's blocks: each code block and list item whole (cut at its lines if too long),
     * each other line alone (cut at its sentences if too long).
     */
    private List<Span> blocks(Span piece) {
      List<Span> spans = new ArrayList<>();
      int start = piece.start();
      Cut cut = null;
      List<Block> all = blocks();
      for (int b = firstBlockFrom(piece.start()); b < all.size(); b++) {
        Block block = all.get(b);
        if (block.start() >= piece.end()) {
          break;
        }
        if (block.kind() == Kind.BLANK) {
          continue; // stays with the block before it
        }
        if (cut != null && block.start() > start) {
          spans.add(new Span(start, block.start(), cut));
          start = block.start();
        }
        cut = block.kind() == Kind.LINE ? Cut.SENTENCES : Cut.LINES;
      }
      spans.add(new Span(start, piece.end(), cut == null ? Cut.SENTENCES : cut));
      return spans;
    }

    private List<Span> lines(Span piece) {
      List<Span> spans = new ArrayList<>();
      int start = piece.start();
      for (int i = piece.start(); i < piece.end() - 1; i++) {
        if (text.charAt(i) == '\n') {
          spans.add(new Span(start, i + 1, Cut.SENTENCES));
          start = i + 1;
        }
      }
      spans.add(new Span(start, piece.end(), Cut.SENTENCES));
      return spans;
    }

    /**
     * Cut after a sentence's end: {@code .}, {@code !} or {@code ?} (with any closing quotes or
     * brackets) followed by whitespace, or a CJK full stop, exclamation or question mark. The
     * whitespace goes with the next sentence, as a tokenizer joins a space to the word after it.
     */
    private List<Span> sentences(Span piece) {
      List<Span> spans = new ArrayList<>();
      int start = piece.start();
      int end = piece.end();
      for (int i = piece.start(); i < end - 1; i++) {
        char c = text.charAt(i);
        int cutAt = -1;
        if (c == '。' || c == '！' || c == '？') {
          cutAt = i + 1;
        } else if (c == '.' || c == '!' || c == '?') {
          int j = i + 1;
          while (j < end && isClosing(text.charAt(j))) {
            j++;
          }
          if (j < end && Character.isWhitespace(text.charAt(j))) {
            cutAt = j;
          }
        }
        if (cutAt > start && cutAt < end) {
          spans.add(new Span(start, cutAt, Cut.WORDS));
          start = cutAt;
          i = cutAt - 1;
        }
      }
      spans.add(new Span(start, end, Cut.WORDS));
      return spans;
    }

    private static boolean isClosing(char c) {
      return c == '"' || c == '\'' || c == ')' || c == ']' || c == '”' || c == '’' || c == '»';
    }

    /** Cut where whitespace follows a non-whitespace character; the whitespace leads the word. */
    private List<Span> words(Span piece) {
      List<Span> spans = new ArrayList<>();
      int start = piece.start();
      for (int i = piece.start() + 1; i < piece.end(); i++) {
        if (Character.isWhitespace(text.charAt(i))
            && !Character.isWhitespace(text.charAt(i - 1))
            && i > start) {
          spans.add(new Span(start, i, Cut.WINDOWS));
          start = i;
        }
      }
      spans.add(new Span(start, piece.end(), Cut.WINDOWS));
      return spans;
    }

    private List<Span> windows(Span piece) {
      return byCodePoints(piece, WINDOW_CODE_POINTS, Cut.CODE_POINTS);
    }

    private List<Span> codePoints(Span piece) {
      return byCodePoints(piece, 1, Cut.NONE);
    }

    /**
     * Pieces of {@code size} code points, never ending inside a surrogate pair nor before a
     * combining mark, a variation selector or a zero-width joiner (which belong to the character
     * before them).
     */
    private List<Span> byCodePoints(Span piece, int size, Cut next) {
      List<Span> spans = new ArrayList<>();
      int start = piece.start();
      int i = start;
      while (i < piece.end()) {
        for (int n = 0; n < size && i < piece.end(); n++) {
          i += Character.charCount(text.codePointAt(i));
        }
        while (i < piece.end() && joinsPrevious(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
        int end = Math.min(i, piece.end());
        spans.add(new Span(start, end, next));
        start = end;
      }
      return spans;
    }

    private static boolean joinsPrevious(int codePoint) {
      int type = Character.getType(codePoint);
      return type == Character.NON_SPACING_MARK
          || type == Character.ENCLOSING_MARK
          || type == Character.COMBINING_SPACING_MARK
          || codePoint == 0x200D
          || (codePoint >= 0xFE00 && codePoint <= 0xFE0F)
          || (codePoint >= 0xE0100 && codePoint <= 0xE01EF)
          || (codePoint >= 0x1F3FB && codePoint <= 0x1F3FF);
    }

    /** The index of the first block that starts at or after {@code offset}. */
    private int firstBlockFrom(int offset) {
      List<Block> all = blocks();
      int low = 0;
      int high = all.size();
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (all.get(mid).start() < offset) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    private List<Block> blocks() {
      if (blocks == null) {
        blocks = Block.parse(text);
      }
      return blocks;
    }
  }

  private enum Kind {
    BLANK,
    LINE,
    CODE,
    ITEM
  }

  /**
   * A run of whole lines, [start, end) including its last line break: blank lines, one plain line,
   * a fenced code block or a list item with its continuation lines.
   */
  private record Block(Kind kind, int start, int end) {
    static List<Block> parse(String text) {
      List<Integer> starts = new ArrayList<>();
      starts.add(0);
      for (int i = 0; i < text.length(); i++) {
        if (text.charAt(i) == '\n' && i + 1 < text.length()) {
          starts.add(i + 1);
        }
      }
      Lines lines = new Lines(text, starts);
      List<Block> blocks = new ArrayList<>();
      int i = 0;
      while (i < lines.size()) {
        Kind kind;
        int last;
        if (lines.isBlank(i)) {
          kind = Kind.BLANK;
          last = i;
          while (last + 1 < lines.size() && lines.isBlank(last + 1)) {
            last++;
          }
        } else if (lines.fence(i) > 0) {
          kind = Kind.CODE;
          last = lines.fenceEnd(i);
        } else if (lines.isItem(i)) {
          kind = Kind.ITEM;
          last = i;
          while (last + 1 < lines.size() && continuesItem(lines, last + 1)) {
            last = lines.fence(last + 1) > 0 ? lines.fenceEnd(last + 1) : last + 1;
          }
        } else {
          kind = Kind.LINE;
          last = i;
        }
        blocks.add(new Block(kind, lines.start(i), lines.next(last)));
        i = last + 1;
      }
      return blocks;
    }

    /** A non-blank line that starts no new item, heading or unindented fence. */
    private static boolean continuesItem(Lines lines, int line) {
      if (lines.isBlank(line) || lines.isItem(line) || lines.isHeading(line)) {
        return false;
      }
      return lines.fence(line) == 0 || lines.indent(line) > 0;
    }
  }

  /** The lines of a text, by their start offsets. */
  private record Lines(String text, List<Integer> starts) {
    int size() {
      return starts.size();
    }

    int start(int line) {
      return starts.get(line);
    }

    /** The offset after the line's line break (or the text's end). */
    int next(int line) {
      return line + 1 < starts.size() ? starts.get(line + 1) : text.length();
    }

    /** The offset of the line's line break (or the text's end). */
    int end(int line) {
      int end = next(line);
      return end > start(line) && text.charAt(end - 1) == '\n' ? end - 1 : end;
    }

    int indent(int line) {
      return CodeFences.indent(text, start(line), end(line));
    }

    boolean isBlank(int line) {
      for (int i = start(line); i < end(line); i++) {
        if (!Character.isWhitespace(text.charAt(i))) {
          return false;
        }
      }
      return true;
    }

    /** The length of the fence that opens this line ({@code ```} or {@code ~~~}), or 0. */
    int fence(int line) {
      return CodeFences.opening(text, start(line), end(line));
    }

    /** The last line of the code block this line's fence opens: its closing fence, or the end. */
    int fenceEnd(int line) {
      char mark = text.charAt(start(line) + indent(line));
      int length = fence(line);
      for (int j = line + 1; j < size(); j++) {
        if (CodeFences.closes(text, start(j), end(j), mark, length)) {
          return j;
        }
      }
      return size() - 1;
    }

    /**
     * A list item's first line: {@code -}, {@code *}, {@code +}, or digits and {@code .}/{@code )}.
     */
    boolean isItem(int line) {
      int i = start(line) + indent(line);
      int end = end(line);
      if (i >= end) {
        return false;
      }
      char c = text.charAt(i);
      int after;
      if (c == '-' || c == '*' || c == '+') {
        after = i + 1;
      } else {
        int j = i;
        while (j < end && j - i < 9 && text.charAt(j) >= '0' && text.charAt(j) <= '9') {
          j++;
        }
        if (j == i || j >= end || (text.charAt(j) != '.' && text.charAt(j) != ')')) {
          return false;
        }
        after = j + 1;
      }
      return after >= end || text.charAt(after) == ' ' || text.charAt(after) == '\t';
    }

    boolean isHeading(int line) {
      int i = start(line) + indent(line);
      return i < end(line) && text.charAt(i) == '#';
    }
  }
}
