package dev.engram.analysis;

import java.time.Clock;
import java.util.List;

/**
 * The query analyzer for English, the default: question words ({@link QuestionWords}:
 * interrogatives and auxiliary verbs), words about the conversation itself ({@link DialogueWords}),
 * names ({@link QueryNames}: capitalised words inside a sentence, without months, weekdays and
 * titles) and periods ({@link QueryPeriods}: days, months, years, and "yesterday", "last week" and
 * the like) and content words ({@link ContentWords}).
 */
public final class EnglishQueryAnalyzer implements QueryAnalyzer {
  static final EnglishQueryAnalyzer INSTANCE = new EnglishQueryAnalyzer();

  private EnglishQueryAnalyzer() {}

  @Override
  public String keywords(String query) {
    return QuestionWords.strip(query);
  }

  @Override
  public String subjectWords(String query) {
    return QuestionWords.without(query, DialogueWords.AND_QUESTION_WORDS).orElse("");
  }

  @Override
  public List<String> contentWords(String query) {
    return ContentWords.of(query);
  }

  @Override
  public List<String> names(String query) {
    return QueryNames.of(query);
  }

  @Override
  public List<String> namesNotInCapitals(String query) {
    return QueryNames.notInCapitals(query);
  }

  @Override
  public boolean mentions(String text, String name) {
    return QueryNames.mentions(text, name);
  }

  @Override
  public List<Period> periods(String query, Clock clock) {
    return QueryPeriods.of(query, clock);
  }
}
