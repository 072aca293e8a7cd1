package dev.engram.engine;

import dev.engram.analysis.QueryAnalyzer;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import java.util.List;

/**
 * The ranking step {@link dev.engram.Ranking#NAMES names} ({@link NamesStep}): a query that names
 * someone or something ({@link QueryAnalyzer#names}), none of whose names any memory in the
 * search's reach mentions, and that no memory matches closely, asks about what the store has never
 * heard of, and gets nothing. One known name is enough to keep the search: a scope per speaker
 * holds what one of two people said, and a question about both is about it too. A name is known if
 * it is a word of the scope's user, agent or run id, of the text, source context or speaker of one
 * of the fusion's first candidates, or else if the keyword index finds it in the reach's texts or
 * contexts (one lookup per name the candidates do not mention). "Closely" is an own relevance of at
 * least {@link #CLOSE}: a memory that close is kept whatever the query names. The step cuts only
 * where every one of the first candidates names its speaker: a fact stored without one ("Works as a
 * nurse", as an LLM extracts it from an unnamed user's message) is about someone the store cannot
 * name, whom the query may be naming.
 */
final class UnknownNames {
  /**
   * The relevance at which a memory is close whatever the query names: 0.7 on the calibrated scale,
   * with bge-small's map a cosine of 0.6 for a memory holding half of the query's content words
   * (the names among them unknown), where the step was tuned on the cosine (92-94% of LoCoMo's
   * off-topic questions cut for 0.002-0.004 of the real questions' evidence); 0.55 let memories
   * sharing the query's other words pass as close, and the step cut 85% of them.
   */
  static final double CLOSE = 0.7;

  private UnknownNames() {}

  /**
   * True if the search should return nothing: {@code queryRelevance} (the best own relevance among
   * the first candidates) is under {@link #CLOSE}, the query names something, and every name it
   * gives is unknown to the reach of {@code q}.
   */
  static boolean cut(
      QueryAnalyzer analyzer,
      SearchIndex index,
      IndexQuery q,
      String query,
      double queryRelevance,
      List<StoredMemory> first) {
    if (queryRelevance >= CLOSE) {
      return false;
    }
    List<String> names = analyzer.names(query);
    if (names.isEmpty() || first.isEmpty() || first.stream().anyMatch(m -> !spoken(m))) {
      return false; // a memory without a speaker may be about anyone: the query's name could be its
      // speaker's
    }
    // one known name is enough: the query is about someone the scope knows, whatever else it names
    return !anyKnown(analyzer, index, q, names, first);
  }

  /**
   * True if {@code query} names someone or something ({@link QueryAnalyzer#namesNotInCapitals})
   * that the reach of {@code q} knows (see the class comment): such a query is about them, and the
   * memories about them may answer it in words it does not use. The rarity rule ({@link
   * UnfamiliarQuery}) keeps it. A word the query writes only in capitals does not count: it may be
   * emphasis ("Mention ONLY three items"), which a store of any subject holds as a word; the rarity
   * rule still reads all of the query's words.
   */
  static boolean namesSomethingKnown(
      QueryAnalyzer analyzer,
      SearchIndex index,
      IndexQuery q,
      String query,
      List<StoredMemory> first) {
    return anyKnown(analyzer, index, q, analyzer.namesNotInCapitals(query), first);
  }

  /**
   * True if one of {@code names} is known to the reach of {@code q}: a word of the scope's ids or
   * of a first candidate ({@link #known}), or else found by the keyword index in the reach's texts
   * or contexts.
   */
  private static boolean anyKnown(
      QueryAnalyzer analyzer,
      SearchIndex index,
      IndexQuery q,
      List<String> names,
      List<StoredMemory> first) {
    for (String name : names) {
      if (known(analyzer, name, q, first)
          || !index.keyword(q, IndexField.TEXT, name, 1).isEmpty()
          || !index.keyword(q, IndexField.CONTEXT, name, 1).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * True if {@code name} is a word of the scope's ids or of a candidate's speaker, text or source
   * context.
   */
  private static boolean known(
      QueryAnalyzer analyzer, String name, IndexQuery q, List<StoredMemory> first) {
    if (q.scope().userId().filter(id -> analyzer.mentions(id, name)).isPresent()
        || q.scope().agentId().filter(id -> analyzer.mentions(id, name)).isPresent()
        || q.scope().runId().filter(id -> analyzer.mentions(id, name)).isPresent()) {
      return true;
    }
    for (StoredMemory m : first) {
      if ((spoken(m) && analyzer.mentions(m.item().actorId(), name))
          || analyzer.mentions(m.item().text(), name)
          || analyzer.mentions(m.context(), name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True if the memory names its speaker (a message's name, as {@link
   * dev.engram.MemoryItem#actorId}).
   */
  private static boolean spoken(StoredMemory m) {
    return m.item().actorId() != null && !m.item().actorId().isBlank();
  }
}
