package dev.engram.server.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A route's path template, such as {@code /v1/memories/{memory_id}/}: literal segments, matched
 * exactly (a trailing slash included), and {@code {name}} parameters, each a whole non-empty
 * segment, decoded from the request's percent-encoding once the path has matched.
 */
record RoutePath(List<Segment> template) {

  /** A literal segment, or a parameter's name. */
  record Segment(String text, boolean parameter) {}

  RoutePath {
    template = List.copyOf(template);
  }

  static RoutePath of(String template) {
    return new RoutePath(
        segments(template).stream()
            .map(
                s ->
                    s.length() > 2 && s.startsWith("{") && s.endsWith("}")
                        ? new Segment(s.substring(1, s.length() - 1), true)
                        : new Segment(s, false))
            .toList());
  }

  /** A path's segments, split at every slash (empty segments kept). */
  static List<String> segments(String path) {
    return List.of(path.split("/", -1));
  }

  /** Whether a request's still-encoded segments match the template. */
  boolean matches(List<String> encoded) {
    if (encoded.size() != template.size()) {
      return false;
    }
    for (int i = 0; i < template.size(); i++) {
      Segment t = template.get(i);
      String segment = encoded.get(i);
      if (t.parameter() ? segment.isEmpty() : !t.text().equals(segment)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The parameters of segments that {@link #matches}, decoded; a 400 {@link ApiException} naming
   * the parameter when one is not valid percent-encoded UTF-8.
   */
  Map<String, String> params(List<String> encoded) {
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < template.size(); i++) {
      Segment t = template.get(i);
      if (t.parameter()) {
        params.put(t.text(), decode(t.text(), encoded.get(i)));
      }
    }
    return Map.copyOf(params);
  }

  /** A segment's percent-escapes decoded as UTF-8, strictly: a malformed one is refused. */
  private static String decode(String name, String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c != '%') {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      } else if (i + 2 < segment.length()
          && HexFormat.isHexDigit(segment.charAt(i + 1))
          && HexFormat.isHexDigit(segment.charAt(i + 2))) {
        bytes.write(HexFormat.fromHexDigits(segment, i + 1, i + 3));
        i += 2;
      } else {
        throw notUtf8(name);
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw notUtf8(name);
    }
  }

  private static ApiException notUtf8(String name) {
    return new ApiException(
        400, "invalid request: the path's " + name + " is not valid percent-encoded UTF-8", name);
  }
}
