package dev.engram.extract;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * English verb agreement for a subject that changes from "I" to a third person ("I go" becomes
 * "Caroline goes"). Past forms, modals and words that read the same in present and past ({@code
 * read, put, let...}) are left alone; simple present forms get the third-person {@code -s}: {@code
 * go->goes, watch->watches, study->studies, play->plays, have->has, do->does, am->is,
 * don't->doesn't, haven't->hasn't}.
 *
 * <p>Stateless and thread-safe.
 */
final class Verbs {

  private static final Map<String, String> IRREGULAR =
      Map.ofEntries(
          Map.entry("am", "is"),
          Map.entry("'m", "is"),
          Map.entry("have", "has"),
          Map.entry("do", "does"),
          Map.entry("go", "goes"),
          Map.entry("don't", "doesn't"),
          Map.entry("haven't", "hasn't"),
          Map.entry("aren't", "isn't"),
          Map.entry("dont", "doesn't"),
          Map.entry("havent", "hasn't"),
          Map.entry("wanna", "wants to"),
          Map.entry("gotta", "has to"),
          Map.entry("be", "is"));

  /** Modals and auxiliaries that do not agree with their subject. */
  private static final Set<String> MODALS =
      Set.of(
          "can",
          "could",
          "will",
          "would",
          "shall",
          "should",
          "may",
          "might",
          "must",
          "ought",
          "used",
          "did",
          "didn't",
          "can't",
          "cannot",
          "couldn't",
          "won't",
          "wouldn't",
          "shouldn't",
          "mustn't",
          "was",
          "wasn't",
          "were",
          "weren't",
          "had",
          "hadn't",
          "ain't",
          "gonna");

  /** Common irregular past forms. */
  private static final Set<String> PAST =
      Set.of(
          "went",
          "got",
          "saw",
          "made",
          "took",
          "came",
          "found",
          "felt",
          "thought",
          "told",
          "gave",
          "knew",
          "met",
          "left",
          "heard",
          "bought",
          "brought",
          "ran",
          "began",
          "wrote",
          "spent",
          "sent",
          "built",
          "lost",
          "won",
          "sat",
          "stood",
          "understood",
          "taught",
          "caught",
          "fought",
          "kept",
          "slept",
          "swam",
          "sang",
          "drove",
          "rode",
          "ate",
          "drank",
          "fell",
          "flew",
          "grew",
          "drew",
          "chose",
          "spoke",
          "woke",
          "wore",
          "broke",
          "forgot",
          "became",
          "said",
          "paid",
          "meant",
          "held",
          "led",
          "fed",
          "lit",
          "dealt",
          "learnt",
          "dreamt",
          "burnt",
          "sold",
          "shot",
          "struck",
          "hung",
          "dug",
          "stuck",
          "swung",
          "threw",
          "hid",
          "bit",
          "shook",
          "forgave",
          "overcame",
          "rang",
          "sank",
          "stole",
          "tore",
          "froze",
          "was",
          "had",
          "did");

  /** Verbs that read the same in present and past; left alone (the past reading is grammatical). */
  private static final Set<String> SAME =
      Set.of(
          "read", "put", "set", "cut", "hit", "let", "quit", "hurt", "cost", "shut", "spread",
          "bet", "burst", "fit");

  /** Present verbs ending in "-eed", which are not past forms. */
  private static final Set<String> EED_PRESENT =
      Set.of(
          "need", "feed", "bleed", "breed", "speed", "proceed", "succeed", "exceed", "heed", "weed",
          "seed");

  /** Irregular past participles, used to read "I'd" as "had". */
  private static final Set<String> PARTICIPLES =
      Set.of(
          "been",
          "had",
          "gone",
          "done",
          "seen",
          "made",
          "taken",
          "given",
          "known",
          "heard",
          "found",
          "told",
          "left",
          "got",
          "gotten",
          "come",
          "become",
          "forgotten",
          "written",
          "eaten",
          "met",
          "thought",
          "felt",
          "lost",
          "won",
          "bought",
          "brought",
          "spent",
          "sent",
          "kept",
          "begun",
          "run",
          "grown",
          "driven",
          "flown",
          "spoken",
          "chosen");

  /** The auxiliaries a question puts before its subject ("do I", "can I", "am I"). */
  private static final Set<String> AUXILIARIES =
      Set.of(
          "am",
          "aren't",
          "do",
          "don't",
          "did",
          "didn't",
          "have",
          "haven't",
          "had",
          "hadn't",
          "was",
          "wasn't",
          "can",
          "can't",
          "could",
          "couldn't",
          "will",
          "won't",
          "would",
          "wouldn't",
          "shall",
          "should",
          "shouldn't",
          "may",
          "might",
          "must");

  private Verbs() {}

  /**
   * The form of {@code verb} after a third-person singular subject, in its case ("Do" becomes
   * "Does", "GO" "GOES"); {@code verb} itself if none applies.
   */
  static String thirdPerson(String verb) {
    String lower = verb.toLowerCase(Locale.ROOT);
    String out = agree(lower);
    if (out.equals(lower)) {
      return verb;
    }
    if (verb.length() > 1 && verb.equals(verb.toUpperCase(Locale.ROOT))) {
      return out.toUpperCase(Locale.ROOT);
    }
    return Character.isUpperCase(verb.charAt(0))
        ? Character.toUpperCase(out.charAt(0)) + out.substring(1)
        : out;
  }

  /** True for an auxiliary that a question puts before its subject: "do", "can", "am", "didn't". */
  static boolean isAuxiliary(String word) {
    return AUXILIARIES.contains(word.toLowerCase(Locale.ROOT));
  }

  private static String agree(String v) {
    String irregular = IRREGULAR.get(v);
    if (irregular != null) {
      return irregular;
    }
    if (!isPlainWord(v) || MODALS.contains(v) || SAME.contains(v) || isPast(v)) {
      return v;
    }
    if (v.endsWith("s")
        || v.endsWith("sh")
        || v.endsWith("ch")
        || v.endsWith("x")
        || v.endsWith("z")
        || v.endsWith("o")) {
      return v + "es";
    }
    if (v.endsWith("y") && v.length() > 1 && !isVowel(v.charAt(v.length() - 2))) {
      return v.substring(0, v.length() - 1) + "ies";
    }
    return v + "s";
  }

  /**
   * True for a past form: a known irregular past, or a word ending in "-ed" that is not a present
   * "-eed" verb.
   */
  static boolean isPast(String word) {
    String v = word.toLowerCase(Locale.ROOT);
    return PAST.contains(v) || (v.length() > 3 && v.endsWith("ed") && !EED_PRESENT.contains(v));
  }

  /**
   * True for a past participle ({@code been, gone, finished...}): "I'd" followed by one reads as "I
   * had".
   */
  static boolean isParticiple(String word) {
    String v = word.toLowerCase(Locale.ROOT);
    return PARTICIPLES.contains(v)
        || (v.length() > 3 && v.endsWith("ed") && !EED_PRESENT.contains(v));
  }

  private static boolean isPlainWord(String v) {
    if (v.isEmpty()) {
      return false;
    }
    for (int i = 0; i < v.length(); i++) {
      if (!Character.isLetter(v.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isVowel(char c) {
    return "aeiou".indexOf(c) >= 0;
  }
}
