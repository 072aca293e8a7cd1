package dev.engram.lucene;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.BytesRef;

/**
 * Byte encodings of strings for the index.
 *
 * <p><b>Terms.</b> Lucene orders terms by their bytes, which for UTF-8 is code point order; Java's
 * {@link String#compareTo} (the reference semantics) orders by UTF-16 code unit, and the two
 * disagree when a character in U+E000..U+FFFF meets a supplementary character. So each UTF-16 unit
 * {@code u} becomes one code point ({@code u} below U+D800, {@code u + 0x800} from there on: no
 * surrogates, order kept), encoded as UTF-8. Byte order of the result equals {@code
 * String.compareTo} order, equality equals {@code String.equals} (even for unpaired surrogates),
 * and the encoding is never needed backwards.
 *
 * <p><b>Value lists.</b> Doc values hold a field's values as raw UTF-16 so that predicates can
 * evaluate them with exactly Java's semantics: a 4-byte count, then per value a 4-byte length and
 * its chars.
 */
final class StringCodec {
  /** The longest encoded term Lucene accepts. */
  static final int MAX_TERM_BYTES = IndexWriter.MAX_TERM_LENGTH;

  private StringCodec() {}

  /** The length in bytes of {@link #term}{@code (s)}. */
  static int termLength(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      n += unitLength(s.charAt(i));
    }
    return n;
  }

  /** True if {@code s} can be indexed as a term. */
  static boolean fitsInTerm(String s) {
    return s.length() <= MAX_TERM_BYTES && termLength(s) <= MAX_TERM_BYTES;
  }

  /** The order-preserving term bytes of {@code s}. */
  static BytesRef term(String s) {
    byte[] out = new byte[termLength(s)];
    int p = 0;
    for (int i = 0; i < s.length(); i++) {
      int u = s.charAt(i);
      int c = u < 0xD800 ? u : u + 0x800;
      if (c < 0x80) {
        out[p++] = (byte) c;
      } else if (c < 0x800) {
        out[p++] = (byte) (0xC0 | (c >> 6));
        out[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (c < 0x10000) {
        out[p++] = (byte) (0xE0 | (c >> 12));
        out[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[p++] = (byte) (0x80 | (c & 0x3F));
      } else {
        out[p++] = (byte) (0xF0 | (c >> 18));
        out[p++] = (byte) (0x80 | ((c >> 12) & 0x3F));
        out[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return new BytesRef(out);
  }

  private static int unitLength(int u) {
    if (u < 0x80) {
      return 1;
    }
    if (u < 0x800) {
      return 2;
    }
    return u + 0x800 < 0x10000 || u < 0xD800 ? 3 : 4;
  }

  /** Encodes a list of strings for a binary doc value. */
  static BytesRef encodeList(List<String> values) {
    int size = 4;
    for (String v : values) {
      size += 4 + 2 * v.length();
    }
    byte[] out = new byte[size];
    int p = putInt(out, 0, values.size());
    for (String v : values) {
      p = putInt(out, p, v.length());
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        out[p++] = (byte) (c >> 8);
        out[p++] = (byte) c;
      }
    }
    return new BytesRef(out);
  }

  /** Decodes what {@link #encodeList} wrote. */
  static List<String> decodeList(BytesRef ref) {
    byte[] b = ref.bytes;
    int p = ref.offset;
    int count = getInt(b, p);
    p += 4;
    List<String> out = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      int len = getInt(b, p);
      p += 4;
      char[] chars = new char[len];
      for (int i = 0; i < len; i++) {
        chars[i] = (char) (((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF));
        p += 2;
      }
      out.add(new String(chars));
    }
    return out;
  }

  private static int putInt(byte[] out, int p, int v) {
    out[p] = (byte) (v >>> 24);
    out[p + 1] = (byte) (v >>> 16);
    out[p + 2] = (byte) (v >>> 8);
    out[p + 3] = (byte) v;
    return p + 4;
  }

  private static int getInt(byte[] b, int p) {
    return ((b[p] & 0xFF) << 24)
        | ((b[p + 1] & 0xFF) << 16)
        | ((b[p + 2] & 0xFF) << 8)
        | (b[p + 3] & 0xFF);
  }
}
