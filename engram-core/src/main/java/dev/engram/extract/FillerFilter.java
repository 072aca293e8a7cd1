package dev.engram.extract;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides which sentences carry content. In order:
 *
 * <ol>
 *   <li>leading interjections and a greeted name are cut ({@code "Hey Mel, I adopted..."} keeps
 *       {@code "I adopted..."}; {@code oh, wow, yeah...} always, {@code well, so, yes, sure,
 *       actually...} only before a comma), a trailing {@code lol}/{@code haha} is cut, and a tag
 *       question ({@code ", right?"}, {@code ", you know?"}) becomes a full stop;
 *   <li>thanks are dropped: a sentence opening with "Thanks for" or "Thank you (so much) for";
 *   <li>a question is dropped: a sentence whose last punctuation mark is {@code ?} (also {@code
 *       ?!}), or one without final punctuation that opens with an interrogative word and addresses
 *       "you" ({@code "How have you been"}); but a question that opens with a statement whose words
 *       say enough (at least {@code minContentWords + 1} content words; see {@link #statementLead})
 *       is kept: whole, with what it asks ({@link OfflineExtractor.Requests#WHOLE}), or as the
 *       statement alone ({@link OfflineExtractor.Requests#STATEMENT}: {@code "I'm moving to Lisbon
 *       in May, can you suggest a neighbourhood?"} keeps {@code "I'm moving to Lisbon in May."});
 *   <li>a sentence with fewer than {@code minContentWords} content words is dropped. Content words
 *       are the words left after removing function words (articles, prepositions, auxiliaries,
 *       pronouns...) and a filler lexicon of greetings and reactions ({@code hi, thanks, wow,
 *       great, congrats, bye, lol...}); a first-person pronoun ({@code I, I'm, my, me, we...})
 *       counts once, because it makes the sentence a fact about the speaker, so {@code "I adopted a
 *       puppy"} has three (I, adopted, puppy) while {@code "Good to see you!"} has none. A name the
 *       sentence ends by addressing ({@code "That's gorgeous, Caroline!"}) is not counted: it says
 *       who is spoken to, not what is said.
 * </ol>
 *
 * <p>Immutable and thread-safe.
 */
final class FillerFilter {

  private static final Set<String> FUNCTION_WORDS =
      Set.of(
          "a",
          "an",
          "the",
          "this",
          "that",
          "these",
          "those",
          "there",
          "here",
          "it",
          "its",
          "it's",
          "that's",
          "there's",
          "what's",
          "he",
          "him",
          "his",
          "she",
          "her",
          "hers",
          "they",
          "them",
          "their",
          "you",
          "your",
          "yours",
          "yourself",
          "you're",
          "you've",
          "you'd",
          "you'll",
          "he's",
          "she's",
          "they're",
          "let's",
          "u",
          "ya",
          "am",
          "is",
          "are",
          "was",
          "were",
          "be",
          "been",
          "being",
          "have",
          "has",
          "had",
          "do",
          "does",
          "did",
          "will",
          "would",
          "can",
          "could",
          "should",
          "shall",
          "may",
          "might",
          "must",
          "don't",
          "doesn't",
          "didn't",
          "can't",
          "won't",
          "isn't",
          "aren't",
          "wasn't",
          "weren't",
          "haven't",
          "hasn't",
          "wouldn't",
          "couldn't",
          "shouldn't",
          "to",
          "of",
          "in",
          "on",
          "at",
          "by",
          "for",
          "with",
          "about",
          "from",
          "into",
          "up",
          "down",
          "out",
          "off",
          "over",
          "again",
          "then",
          "than",
          "as",
          "and",
          "or",
          "but",
          "if",
          "because",
          "while",
          "when",
          "what",
          "how",
          "why",
          "where",
          "who",
          "which",
          "some",
          "any",
          "all",
          "each",
          "every",
          "no",
          "not",
          "so",
          "such",
          "very",
          "too",
          "really",
          "just",
          "also",
          "quite",
          "pretty",
          "much",
          "many",
          "more",
          "most",
          "oh",
          "ah",
          "um",
          "uh",
          "hmm",
          "well",
          "yeah",
          "yes",
          "yep",
          "yup",
          "nope",
          "ok",
          "okay",
          "sure",
          "totally",
          "absolutely",
          "definitely",
          "indeed",
          "right",
          "now",
          "anyway",
          "btw",
          "still",
          "though",
          "even",
          "way",
          "lot",
          "lots",
          "things",
          "thing",
          "stuff");
  private static final Set<String> FILLER =
      Set.of(
          "hi",
          "hey",
          "hello",
          "hiya",
          "howdy",
          "thanks",
          "thank",
          "thx",
          "ty",
          "wow",
          "whoa",
          "woah",
          "oof",
          "omg",
          "lol",
          "lmao",
          "ha",
          "haha",
          "hahaha",
          "hehe",
          "bye",
          "goodbye",
          "cya",
          "see",
          "later",
          "soon",
          "congrats",
          "congratulations",
          "great",
          "good",
          "cool",
          "awesome",
          "nice",
          "amazing",
          "wonderful",
          "fantastic",
          "sweet",
          "lovely",
          "glad",
          "hear",
          "sounds",
          "talk",
          "care",
          "luck",
          "same",
          "welcome",
          "cheers",
          "agree",
          "exactly",
          "true",
          "aww",
          "awww",
          "yay",
          "woohoo");
  private static final Set<String> FIRST_PERSON =
      Set.of(
          "i",
          "i'm",
          "i've",
          "i'd",
          "i'll",
          "me",
          "my",
          "mine",
          "myself",
          "we",
          "we're",
          "we've",
          "we'd",
          "we'll",
          "us",
          "our",
          "ours",
          "ourselves",
          "im",
          "ive");
  private static final String ALWAYS =
      "(?:oh+|ah+|wow+|whoa|hey+|hi+|hello|yeah+|yep|yup|nope|ok|okay|ha(?:ha)+|lol"
          + "|omg|um+|uh+|hm+|aw+|ooh+|gosh|geez|dang|yay)";
  private static final String BEFORE_COMMA =
      "(?:well|so|yes|sure|totally|honestly|actually|anyway|btw|by the way"
          + "|oh well|you know|i mean|alright|right|true)";
  private static final Pattern LEADING =
      Pattern.compile(
          "^(?:(?:"
              + ALWAYS
              + "(?=[\\s,!.:;]|$)|"
              + BEFORE_COMMA
              + "(?=\\s*,))[\\s,!.:;]*)+"
              + "(?:(?-i:\\p{Lu})[\\p{L}'-]*\\s*[,!]+\\s*)?",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern TRAILING_LAUGH =
      Pattern.compile("[\\s,]+(?:lol|lmao|ha(?:ha)+|he(?:he)+)[.!]*$", Pattern.CASE_INSENSITIVE);
  private static final Pattern TAG_QUESTION =
      Pattern.compile(
          "\\s*,\\s*(?:right|isn't it|aren't they|don't you think|you know|ya know|huh|eh|no)\\s*\\?+[!?]*$",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern FINAL_PUNCT = Pattern.compile("([.!?]+)[^\\p{L}\\p{N}.!?]*$");
  private static final Pattern OPEN_QUESTION =
      Pattern.compile(
          "^(?:what|what's|how|how's|why|where|when|who|which|did|do|does|are|is|have|has|can|could|would|will|was"
              + "|were|wanna|want)\\b.*\\b(?:you|your|ya|u)\\b.*",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern GRATITUDE =
      Pattern.compile(
          "^(?:thanks|thank you|thx)(?:\\s+(?:so much|a lot|again))?\\s+for\\b",
          Pattern.CASE_INSENSITIVE);

  /**
   * Words that open a question after a comma. Not {@code which}, {@code who}, {@code where}, {@code
   * when}, {@code have}: after a comma these mostly open a relative or subordinate clause ({@code
   * "the API, which now answers in 250 ms, ..."}).
   */
  private static final String ASKING =
      "(?:can|could|would|will|won't|do|does|did|should|shall|is|are|am|what|what's|how|how's|why"
          + "|any)";

  /**
   * Where a question starts after a stated lead: a comma, semicolon, colon or dash (or a bare
   * {@code so}), an optional {@code so}/{@code but}/{@code then}, and an auxiliary or interrogative
   * word.
   */
  private static final Pattern QUESTION_AFTER_LEAD =
      Pattern.compile(
          "(?:\\s*[,;:]|\\s+[-\u2013\u2014]+|(?=\\s+so\\s))\\s+(?:(?:so|but|then)\\s+)?"
              + ASKING
              + "\\b",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern INTERROGATIVE_START =
      Pattern.compile(
          "^(?:" + ASKING + "|where|when|which|who|have|has|were|was|wanna|want|if)\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:'[\\p{L}]+)?");

  /** A trailing vocative: a comma, one or two capitalised words, then only final punctuation. */
  private static final Pattern VOCATIVE =
      Pattern.compile(",\\s*\\p{Lu}[\\p{L}'-]*(?:\\s+\\p{Lu}[\\p{L}'-]*)?\\s*[.!?]*\\s*$");

  private final int minContentWords;

  FillerFilter(int minContentWords) {
    this.minContentWords = minContentWords;
  }

  /**
   * The sentence with greetings cut, if what is left is a statement with enough content, or a
   * question that opens with one (kept as {@code requests} says); else empty.
   */
  Optional<String> keep(String sentence, OfflineExtractor.Requests requests) {
    String s = clean(sentence);
    if (s.isEmpty() || GRATITUDE.matcher(s).find()) {
      return Optional.empty();
    }
    if (isQuestion(s)) {
      Optional<String> lead = statementLead(s);
      if (lead.isEmpty() || contentWords(lead.get()) < minContentWords + 1) {
        return Optional.empty();
      }
      if (requests == OfflineExtractor.Requests.STATEMENT) {
        s = lead.get();
      }
    }
    if (contentWords(s) < minContentWords) {
      return Optional.empty();
    }
    return Optional.of(s);
  }

  /**
   * True if a message none of whose sentences is kept still says enough to be kept as it was said:
   * at least {@code minContentWords + 1} content words once greetings and filler are set aside,
   * questions included. {@code "What happens if the upload times out after 30 seconds?"} is kept
   * this way; {@code "How have you been?"} and {@code "Thanks, see you!"} are not.
   */
  boolean worthKeepingVerbatim(String text) {
    return contentWords(clean(text)) >= minContentWords + 1;
  }

  /**
   * The statement a question opens with, ended by a full stop: in {@code "I'm moving to Lisbon in
   * May, can you suggest a neighbourhood?"} the question is asked after a comma (or a semicolon,
   * colon, dash, {@code so} or {@code but}) by an auxiliary or interrogative word, and what comes
   * before it, {@code "I'm moving to Lisbon in May."}, is a fact the asker states. Empty if the
   * sentence opens with the question ({@code "What if it rains, can we stay in?"}) or has no such
   * boundary. In chats with an assistant most requests are worded this way, and their lead carries
   * the user's numbers, dates, tools and plans.
   */
  static Optional<String> statementLead(String question) {
    Matcher m = QUESTION_AFTER_LEAD.matcher(question);
    if (!m.find() || m.start() == 0) {
      return Optional.empty();
    }
    String lead = question.substring(0, m.start()).strip();
    if (lead.isEmpty() || INTERROGATIVE_START.matcher(lead).find()) {
      return Optional.empty();
    }
    return Optional.of(lead + ".");
  }

  /** Characters that occur in code and paths, not in a plain word. */
  private static final Pattern CODE_MARKS = Pattern.compile("[._/\\\\()\\[\\]{}=<>`@$]");

  /**
   * Cuts leading interjections (and a greeted name), a trailing laugh, and turns a tag question
   * into a stop.
   */
  static String clean(String sentence) {
    String s = sentence.strip();
    Matcher lead = LEADING.matcher(s);
    if (lead.find() && lead.end() > 0) {
      s = s.substring(lead.end()).strip();
    }
    s = TRAILING_LAUGH.matcher(s).replaceFirst("").strip();
    s = TAG_QUESTION.matcher(s).replaceFirst(".");
    if (!s.isEmpty() && Character.isLowerCase(s.codePointAt(0)) && !opensWithCode(s)) {
      s = s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
    return s;
  }

  /**
   * True if the sentence's first word, its closing punctuation aside, holds a character of code or
   * a path ({@code app.config[...]}, {@code node_modules/}, {@code useState()}): capitalised, it
   * would no longer be the name the user wrote.
   */
  static boolean opensWithCode(String sentence) {
    int end = 0;
    while (end < sentence.length() && !Character.isWhitespace(sentence.charAt(end))) {
      end++;
    }
    String word = sentence.substring(0, end).replaceFirst("[.,;:!?]+$", "");
    return CODE_MARKS.matcher(word).find();
  }

  /**
   * True for a question: last punctuation mark {@code ?}, or an unpunctuated interrogative
   * addressing "you".
   */
  static boolean isQuestion(String s) {
    Matcher m = FINAL_PUNCT.matcher(s);
    if (m.find()) {
      return m.group(1).contains("?");
    }
    return OPEN_QUESTION.matcher(s).matches();
  }

  /**
   * Words that are neither function words nor filler, a trailing vocative ({@code ", Jon!"}) left
   * out; first-person pronouns count once in all.
   */
  static int contentWords(String s) {
    int count = 0;
    boolean firstPerson = false;
    Matcher m = WORD.matcher(VOCATIVE.matcher(s.replace('\u2019', '\'')).replaceFirst(""));
    while (m.find()) {
      String w = m.group().toLowerCase(Locale.ROOT);
      if (FIRST_PERSON.contains(w)) {
        firstPerson = true;
      } else if (!FUNCTION_WORDS.contains(w) && !FILLER.contains(w)) {
        count++;
      }
    }
    return count + (firstPerson ? 1 : 0);
  }
}
