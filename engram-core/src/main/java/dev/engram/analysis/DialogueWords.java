package dev.engram.analysis;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The English words with which a query speaks of the conversation itself or of the answer's form
 * rather than of its subject: "What did I <b>mention</b> about the deadline <b>earlier</b> in our
 * <b>conversations</b>?", "<b>List</b> the <b>items</b> in the <b>order</b> I <b>brought</b> them
 * up". A memory states what was said, not that it was said, nor how an answer is to be laid out, so
 * these words are in few memories whatever their subject; counted by the rarity rule of the ranking
 * step names ({@link QueryAnalyzer#subjectWords}) they made a question about something the store
 * holds look unfamiliar. The inflected forms are listed, as the rule reads whole words.
 */
final class DialogueWords {
  static final Set<String> WORDS =
      Set.of(
          // the conversation and its parts
          "conversation",
          "conversations",
          "chat",
          "chats",
          "session",
          "sessions",
          "discussion",
          "discussions",
          // saying, and being reminded of what was said
          "mention",
          "mentions",
          "mentioned",
          "mentioning",
          "discuss",
          "discussed",
          "discussing",
          "talk",
          "talked",
          "talking",
          "tell",
          "told",
          "say",
          "said",
          "brought",
          "remind",
          "remember",
          "recall",
          // when, within the conversation
          "earlier",
          "previously",
          "throughout",
          // the answer's form
          "list",
          "items",
          "order",
          "summary",
          "summarize",
          "summarise",
          "only");

  /** These and the question words ({@link QuestionWords#WORDS}): what a query's subject is not. */
  static final Set<String> AND_QUESTION_WORDS =
      Stream.concat(WORDS.stream(), QuestionWords.WORDS.stream())
          .collect(Collectors.toUnmodifiableSet());

  private DialogueWords() {}
}
