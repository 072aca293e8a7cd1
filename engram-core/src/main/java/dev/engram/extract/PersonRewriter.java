package dev.engram.extract;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites a sentence said by a named speaker from the first person to the speaker's name, so that
 * each memory stands on its own:
 *
 * <ul>
 *   <li>{@code I} becomes the name and the verb after it (past an adverb such as {@code really,
 *       also, never} or one in {@code -ly}) agrees through {@link Verbs#thirdPerson}: "I go"
 *       becomes "Caroline goes", "I initially went" "Caroline initially went". After {@code
 *       and}/{@code or} ("my sister and I went") {@code I} is part of a plural subject and the verb
 *       stays. In a question's order the auxiliary before {@code I} agrees instead: "do I need"
 *       becomes "does Caroline need", "am I missing" "is Caroline missing", "can I use" "can
 *       Caroline use".
 *   <li>{@code I'm} becomes "NAME is", {@code I've} "NAME has", {@code I'll} "NAME will"; {@code
 *       I'd} becomes "NAME had" when a past participle follows ("I'd been", "I'd never seen") and
 *       "NAME would" otherwise ("I'd love to").
 *   <li>{@code me} and {@code myself} become the name, {@code my} and {@code mine} "NAME's".
 *   <li>A sentence without a subject that opens with a progressive or past verb gets the name as
 *       subject: "Gonna check out career options" becomes "NAME is gonna check out career options",
 *       an opening adjective of feeling gets "is" too ("Excited to start" becomes "NAME is excited
 *       to start"), "Been busy" becomes "NAME has been busy", and a past form "Went hiking" becomes
 *       "NAME went hiking".
 *   <li>{@code we}, {@code us} and {@code our} are ambiguous (who else?), so they are kept and the
 *       sentence is prefixed with the speaker: "We went camping" becomes "Caroline: we went
 *       camping", unless the rewritten sentence already names the speaker. An all-capital {@code
 *       US} is read as the country.
 * </ul>
 *
 * Without a name the sentence is returned unchanged. Typographic apostrophes are expected to be
 * straight already.
 *
 * <p>Stateless and thread-safe.
 */
final class PersonRewriter {

  private static final Pattern TOKEN =
      Pattern.compile("[\\p{L}\\p{N}]+(?:'[\\p{L}]+)*|\\s+|.", Pattern.DOTALL);

  /** Adverbs that may stand between {@code I} and its verb, besides those in {@code -ly}. */
  private static final Set<String> ADVERBS =
      Set.of(
          "also",
          "just",
          "always",
          "never",
          "often",
          "still",
          "sometimes",
          "only",
          "even",
          "already",
          "kinda",
          "seldom",
          "ever",
          "too",
          "now",
          "almost",
          "not",
          "sorta");

  /**
   * The verbs in {@code -ly} ("I apply", "I reply", "I rely"), which {@link #isAdverb} keeps out.
   */
  private static final Set<String> VERBS_IN_LY =
      Set.of(
          "apply",
          "reapply",
          "misapply",
          "reply",
          "supply",
          "resupply",
          "comply",
          "imply",
          "multiply",
          "rely",
          "fly",
          "ally",
          "rally",
          "tally",
          "bully",
          "sully",
          "dally");

  private static final Set<String> COORDINATORS = Set.of("and", "or", "nor");

  /** Words after which an auxiliary opens a question's clause: "so do I", "how do I". */
  private static final Set<String> CLAUSE_OPENERS =
      Set.of(
          "how", "what", "why", "when", "where", "which", "who", "so", "and", "but", "or", "then",
          "also", "neither", "nor", "please");

  /** Capitalised words after which {@code I} is a Roman numeral: "Type I", "Part I", "War I". */
  private static final Set<String> NUMBERING_WORDS =
      Set.of(
          "act",
          "appendix",
          "article",
          "book",
          "category",
          "chapter",
          "class",
          "episode",
          "exhibit",
          "figure",
          "grade",
          "lesson",
          "level",
          "module",
          "part",
          "phase",
          "round",
          "season",
          "section",
          "series",
          "stage",
          "table",
          "tier",
          "title",
          "type",
          "unit",
          "volume",
          "war");

  /** What may close a sentence or a bracket after a Roman numeral: "Louis I.", "(Phase I)". */
  private static final Set<String> CLOSERS = Set.of(".", "!", "?", ")", "]", ",", ";", ":");

  /** Characters that glue the words beside them into one name: "me-time", my_app, src/my. */
  private static final Set<String> JOINERS = Set.of("-", "_", "/", "\\");

  private static final Set<String> PLURAL_FIRST =
      Set.of("we", "we're", "we've", "we'd", "we'll", "us", "our", "ours", "ourselves");
  private static final Set<String> PROGRESSIVE_OPENERS =
      Set.of(
          "gonna",
          "going",
          "planning",
          "thinking",
          "hoping",
          "trying",
          "heading",
          "off",
          "looking",
          "working",
          "excited",
          "tired",
          "interested",
          "stressed",
          "exhausted",
          "thrilled",
          "pleased",
          "scared",
          "worried",
          "obsessed",
          "bored",
          "inspired",
          "motivated",
          "overwhelmed",
          "swamped",
          "blessed",
          "stoked",
          "pumped",
          "delighted",
          "relieved",
          "surprised",
          "determined",
          "committed",
          "engaged",
          "proud",
          "happy",
          "glad",
          "grateful",
          "thankful",
          "busy",
          "keen",
          "sad",
          "nervous",
          "curious");

  private static final Pattern FIRST_WORD = Pattern.compile("^([\\p{L}']+)");

  /**
   * A finite verb in the first clause means the opening word is not a missing subject's verb
   * ("Looking ... is").
   */
  private static final Pattern FINITE =
      Pattern.compile(
          "\\b(?:is|are|was|were|has|have|had|does|do|did|makes|made|seems|looks|feels|sounds|means|helps|can|will)\\b",
          Pattern.CASE_INSENSITIVE);

  private PersonRewriter() {}

  /**
   * {@code sentence} with its first person rewritten to {@code name}; unchanged if {@code name} is
   * null.
   */
  static String rewrite(String sentence, String name) {
    if (name == null || name.isBlank()) {
      return sentence;
    }
    List<String> tokens = tokenize(sentence);
    boolean plural = false;
    boolean inCode = false;
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).equals("`")) {
        inCode = !inCode;
      }
      if (inCode || partOfLongerWord(tokens, i) || isNumeral(tokens, i)) {
        continue;
      }
      String lower = tokens.get(i).toLowerCase(Locale.ROOT);
      plural |= PLURAL_FIRST.contains(lower) && !tokens.get(i).equals("US");
      switch (lower) {
        case "i" -> {
          tokens.set(i, name);
          int auxiliary = invertingAuxiliary(tokens, i);
          if (auxiliary >= 0) {
            tokens.set(auxiliary, Verbs.thirdPerson(tokens.get(auxiliary)));
          } else if (!isCompoundSubject(tokens, i, name)) {
            int verb = nextWordSkippingAdverbs(tokens, i);
            if (verb >= 0) {
              tokens.set(verb, Verbs.thirdPerson(tokens.get(verb)));
            }
          }
        }
        case "i'm", "im" -> tokens.set(i, name + " is");
        case "i've", "ive" -> tokens.set(i, name + " has");
        case "i'll" -> tokens.set(i, name + " will");
        case "i'd" -> {
          int next = nextWordSkippingAdverbs(tokens, i);
          boolean had = next >= 0 && Verbs.isParticiple(tokens.get(next));
          tokens.set(i, name + (had ? " had" : " would"));
        }
        case "me", "myself" -> tokens.set(i, name);
        case "my", "mine" -> tokens.set(i, name + "'s");
        default -> {}
      }
    }
    String out = addMissingSubject(String.join("", tokens), name);
    if (plural && !containsWord(out, name)) {
      out = name + ": " + lowerFirstPronoun(out);
    }
    return out;
  }

  /**
   * True if token {@code i} is glued to a longer word, so not a pronoun: to a hyphen ("me" in
   * "me-time"), an underscore or a slash ("my" in {@code my_app.py}, {@code src/my/}), or a dot
   * between it and a letter or digit ("my" in {@code my.cnf}, {@code config.my}); a full stop that
   * ends the sentence ("Call me.") glues nothing.
   */
  private static boolean partOfLongerWord(List<String> tokens, int i) {
    String before = i > 0 ? tokens.get(i - 1) : "";
    String after = i + 1 < tokens.size() ? tokens.get(i + 1) : "";
    if (JOINERS.contains(before) || JOINERS.contains(after)) {
      return true;
    }
    return (before.equals(".") && i > 1 && isWord(tokens.get(i - 2)))
        || (after.equals(".") && i + 2 < tokens.size() && isWord(tokens.get(i + 2)));
  }

  /**
   * True if token {@code i} is a capital {@code I} that counts rather than speaks: after a
   * capitalised word that numbers things ("Type I error", "Part I", "World War I"), or closing a
   * sentence or a bracket after a capitalised word that does not open the sentence ("Louis I.",
   * "(Phase I)"). "Mel and I." and "On Monday I went" keep their pronoun.
   */
  private static boolean isNumeral(List<String> tokens, int i) {
    if (!tokens.get(i).equals("I")) {
      return false;
    }
    int before = previousNonBlank(tokens, i);
    if (before < 0 || !Character.isUpperCase(tokens.get(before).codePointAt(0))) {
      return false;
    }
    if (NUMBERING_WORDS.contains(tokens.get(before).toLowerCase(Locale.ROOT))) {
      return true;
    }
    int after = nextNonBlank(tokens, i);
    boolean closes = after == tokens.size() || CLOSERS.contains(tokens.get(after));
    return closes && opensAfter(tokens, before);
  }

  /**
   * The index of the auxiliary right before {@code I} in a question's inverted order ("do I need",
   * "can I use", "am I missing"), or -1: the verb after {@code I} then stays as it is and the
   * auxiliary agrees instead ("does NAME need"). An auxiliary after {@code to} is a verb of its own
   * ("a lot to do I think"). One that would change ({@code am, do, have}) counts only where the
   * order is surely a question's: it opens its clause ("Do I", "so do I", "how do I") or the
   * sentence ends with a question mark; "whatever you do I support" keeps its "do".
   */
  private static int invertingAuxiliary(List<String> tokens, int i) {
    int before = previousNonBlank(tokens, i);
    if (before < 0 || !Verbs.isAuxiliary(tokens.get(before))) {
      return -1;
    }
    int further = previousNonBlank(tokens, before);
    if (further >= 0 && tokens.get(further).equalsIgnoreCase("to")) {
      return -1;
    }
    String auxiliary = tokens.get(before);
    boolean agrees = !Verbs.thirdPerson(auxiliary).equalsIgnoreCase(auxiliary);
    boolean opensClause =
        further < 0
            || !isWord(tokens.get(further))
            || CLAUSE_OPENERS.contains(tokens.get(further).toLowerCase(Locale.ROOT));
    return !agrees || opensClause || endsWithQuestionMark(tokens, i) ? before : -1;
  }

  /** True if the first of {@code . ! ?} after token {@code i} is a question mark. */
  private static boolean endsWithQuestionMark(List<String> tokens, int i) {
    for (int j = i + 1; j < tokens.size(); j++) {
      switch (tokens.get(j)) {
        case "?" -> {
          return true;
        }
        case ".", "!" -> {
          return false;
        }
        default -> {}
      }
    }
    return false;
  }

  /** The index of the last token before {@code i} that is not blank, or -1. */
  private static int previousNonBlank(List<String> tokens, int i) {
    int j = i - 1;
    while (j >= 0 && tokens.get(j).isBlank()) {
      j--;
    }
    return j;
  }

  /** The index of the first token after {@code i} that is not blank, or the number of tokens. */
  private static int nextNonBlank(List<String> tokens, int i) {
    int j = i + 1;
    while (j < tokens.size() && tokens.get(j).isBlank()) {
      j++;
    }
    return j;
  }

  /** True if a word comes before token {@code i}: it does not open the sentence. */
  private static boolean opensAfter(List<String> tokens, int i) {
    for (int k = i - 1; k >= 0; k--) {
      if (isWord(tokens.get(k))) {
        return true;
      }
    }
    return false;
  }

  private static String addMissingSubject(String s, String name) {
    Matcher m = FIRST_WORD.matcher(s);
    if (!m.find() || FINITE.matcher(firstClause(s)).find()) {
      return s;
    }
    String first = m.group(1);
    String lower = first.toLowerCase(Locale.ROOT);
    String rest = lower + s.substring(m.end());
    if (PROGRESSIVE_OPENERS.contains(lower)) {
      return name + " is " + rest;
    }
    if (lower.equals("been")) {
      return name + " has " + rest;
    }
    if (Verbs.isPast(lower)
        && !lower.equals("had")
        && !lower.equals("was")
        && !lower.equals("did")) {
      return name + " " + rest;
    }
    return s;
  }

  /** The text up to the first comma, dash, semicolon or colon, without its first word. */
  private static String firstClause(String s) {
    int end = s.length();
    for (String stop : new String[] {",", " - ", " – ", " — ", ";", ":"}) {
      int at = s.indexOf(stop);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    int space = s.indexOf(' ');
    return space < 0 || space >= end ? "" : s.substring(space, end);
  }

  private static List<String> tokenize(String s) {
    List<String> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(s);
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  private static boolean isWord(String token) {
    return Character.isLetterOrDigit(token.codePointAt(0));
  }

  /**
   * True if the "I" at {@code i} ends a short plural subject such as "my sister and I" or "Mel and
   * I": the word before it is {@code and}/{@code or}/{@code nor} with no punctuation before that,
   * and the words from the start of the clause to it are at most four and do not name the speaker
   * (in "I ate and I slept" the first "I" is already the name, so the second "I" starts a new
   * clause and its verb agrees). A mark between two words without a space ("v2.5", "Node.js")
   * belongs to the word and does not start the clause.
   */
  private static boolean isCompoundSubject(List<String> tokens, int i, String name) {
    int j = previousNonBlank(tokens, i);
    if (j < 0 || !COORDINATORS.contains(tokens.get(j).toLowerCase(Locale.ROOT))) {
      return false;
    }
    int words = 0;
    for (int k = j - 1; k >= 0; k--) {
      String t = tokens.get(k);
      if (t.isBlank()) {
        continue;
      }
      if (!isWord(t) && !joinsTwoWords(tokens, k)) {
        return words > 0 && words <= 4;
      }
      if (t.equals(name) || t.startsWith(name + " ")) {
        return false;
      }
      words++;
    }
    return words > 0 && words <= 4;
  }

  /** True if token {@code k} is a mark glued to a word on either side ("." in "v2.5"). */
  private static boolean joinsTwoWords(List<String> tokens, int k) {
    return k > 0 && k + 1 < tokens.size() && isWord(tokens.get(k - 1)) && isWord(tokens.get(k + 1));
  }

  /**
   * Index of the next word after {@code i} past adverbs, or -1 if punctuation or the end comes
   * first.
   */
  private static int nextWordSkippingAdverbs(List<String> tokens, int i) {
    for (int j = i + 1; j < tokens.size(); j++) {
      String t = tokens.get(j);
      if (t.isBlank()) {
        continue;
      }
      if (!isWord(t)) {
        return -1;
      }
      if (Character.isDigit(t.codePointAt(0))
          && j + 1 < tokens.size()
          && tokens.get(j + 1).equals("%")) {
        j++;
        continue;
      }
      if (!isAdverb(t.toLowerCase(Locale.ROOT))) {
        return j;
      }
    }
    return -1;
  }

  /**
   * True if lower-case {@code word} is an adverb that may stand between a subject and its verb: one
   * of {@link #ADVERBS}, or a word in {@code -ly} ("I really", "I initially thought", "I deeply
   * care") but for the verbs so spelt ({@link #VERBS_IN_LY}).
   */
  private static boolean isAdverb(String word) {
    return ADVERBS.contains(word) || (word.endsWith("ly") && !VERBS_IN_LY.contains(word));
  }

  private static boolean containsWord(String s, String word) {
    return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(word) + "(?![\\p{L}\\p{N}])")
        .matcher(s)
        .find();
  }

  private static String lowerFirstPronoun(String s) {
    Matcher m = FIRST_WORD.matcher(s);
    if (m.find() && PLURAL_FIRST.contains(m.group(1).toLowerCase(Locale.ROOT))) {
      return m.group(1).toLowerCase(Locale.ROOT) + s.substring(m.end());
    }
    return s;
  }
}
