package dev.engram.spi;

import dev.engram.Message;
import dev.engram.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The writing side of the graph memory: finds entities and relations in an add, says which existing
 * entity an ambiguous name refers to, and judges which existing relations a new one contradicts or
 * duplicates. The engine does everything deterministic around it: entity resolution (normalised
 * name, then name-embedding similarity within the scope; only names whose best match falls in the
 * ambiguous band reach {@link #matchEntities}), exact-duplicate detection, candidate selection
 * (only still-valid relations sharing an endpoint with the new one), invalidation and provenance. A
 * method that throws fails the whole add: nothing of it (memories or graph) is written.
 *
 * <p>Implementations are thread-safe.
 */
public interface GraphExtractor {

  /** The entities and relations stated in the add. */
  Extraction extract(Input input);

  /**
   * For each new relation that has candidates, which candidates it contradicts or duplicates.
   * Called at most once per add, and only if some new relation has candidates. Ids not among a
   * question's candidates are ignored. An extractor without contradiction logic returns an empty
   * list.
   */
  List<Verdict> judge(List<Question> questions, UsageMeter usage);

  /**
   * For each new entity name whose most similar existing entities of the scope are close but below
   * the merge threshold, which of them (if any) the name refers to. Called at most once per add,
   * after {@link #extract} and before {@link #judge}, and only if some name is ambiguous. Ids not
   * among a question's candidates are ignored; a name without a match becomes a new entity. The
   * default, for extractors without a language model, matches nothing (similar names stay distinct
   * entities).
   *
   * @param messages the add's non-system messages, oldest first (the context the names appear in)
   * @param questions the ambiguous names with their candidates
   * @param usage where language-model calls are recorded
   */
  default List<EntityMatch> matchEntities(
      List<Message> messages, List<EntityQuestion> questions, UsageMeter usage) {
    return List.of();
  }

  /**
   * A new entity name and the existing entities it may name.
   *
   * @param index the question's number in this add
   * @param name the name as written in the add
   * @param type its extracted type
   * @param candidates existing entities of the scope whose name embeddings are in the ambiguous
   *     band, most similar first
   */
  record EntityQuestion(int index, String name, String type, List<EntityCandidate> candidates) {
    public EntityQuestion {
      Objects.requireNonNull(name, "name");
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * An existing entity shown for an ambiguous name.
   *
   * @param id its id
   * @param name its name
   * @param type its type
   * @param similarity the cosine similarity of the two names' embeddings
   */
  record EntityCandidate(String id, String name, String type, double similarity) {}

  /**
   * The answer for one ambiguous name.
   *
   * @param index the question's index
   * @param entityId the id of the existing entity the name refers to
   */
  record EntityMatch(int index, String entityId) {
    public EntityMatch {
      Objects.requireNonNull(entityId, "entityId");
    }
  }

  /**
   * What an extractor sees.
   *
   * @param scope the scope of the add
   * @param messages the add's non-system messages, oldest first
   * @param timestamp the add's conversation time, or null (relative dates resolve against it, else
   *     against now)
   * @param memories the memories this add creates, in order
   * @param usage where language-model calls are recorded
   */
  record Input(
      Scope scope,
      List<Message> messages,
      Instant timestamp,
      List<NewMemory> memories,
      UsageMeter usage) {
    public Input {
      Objects.requireNonNull(scope, "scope");
      messages = List.copyOf(messages);
      memories = List.copyOf(memories);
      Objects.requireNonNull(usage, "usage");
    }
  }

  /**
   * A memory the add creates.
   *
   * @param id its id
   * @param text its text
   * @param actorId the speaker it came from, or null
   * @param sourceIds the source ids of the messages it was extracted from (its provenance; empty if
   *     unknown)
   */
  record NewMemory(String id, String text, String actorId, List<String> sourceIds) {
    public NewMemory {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
      sourceIds = sourceIds == null ? List.of() : List.copyOf(sourceIds);
    }

    /** A memory without known provenance. */
    public NewMemory(String id, String text, String actorId) {
      this(id, text, actorId, List.of());
    }
  }

  /**
   * An extraction.
   *
   * @param entities entities with their types
   * @param relations relations between entities (endpoint names need not be listed in {@code
   *     entities})
   */
  record Extraction(List<ExtractedEntity> entities, List<ExtractedRelation> relations) {
    public static final Extraction EMPTY = new Extraction(List.of(), List.of());

    public Extraction {
      entities = List.copyOf(entities);
      relations = List.copyOf(relations);
    }
  }

  /**
   * An entity named in the add.
   *
   * @param name its name as written
   * @param type an open type label ({@code person}, {@code place}, ...)
   */
  record ExtractedEntity(String name, String type) {
    public ExtractedEntity {
      Objects.requireNonNull(name, "name");
      type =
          type == null || type.isBlank()
              ? "entity"
              : type.trim().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * A relation stated in the add.
   *
   * @param source the source entity's name
   * @param relation the relation name (normalised to snake_case by the engine)
   * @param target the target entity's name
   * @param fact the fact as a sentence
   * @param validAt since when it holds, resolved against the message time, or null (the engine then
   *     uses the message time)
   * @param invalidAt until when it held, or null
   * @param memoryIds ids of the memories it came from (empty: the memories extracted from its
   *     messages, else every memory of the add)
   * @param messages the positions in {@link Input#messages()} (from 0) of the messages that state
   *     it (empty: those its memories came from, else every message of the add). The relation's
   *     provenance is the source ids of these messages, never of the whole add when the extractor
   *     knows better
   */
  record ExtractedRelation(
      String source,
      String relation,
      String target,
      String fact,
      Instant validAt,
      Instant invalidAt,
      List<String> memoryIds,
      List<Integer> messages) {
    public ExtractedRelation {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(relation, "relation");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(fact, "fact");
      memoryIds = memoryIds == null ? List.of() : List.copyOf(memoryIds);
      messages = messages == null ? List.of() : List.copyOf(messages);
    }

    /** A relation whose messages are those of its memories. */
    public ExtractedRelation(
        String source,
        String relation,
        String target,
        String fact,
        Instant validAt,
        Instant invalidAt,
        List<String> memoryIds) {
      this(source, relation, target, fact, validAt, invalidAt, memoryIds, List.of());
    }
  }

  /**
   * One new relation and the existing relations that may conflict with it.
   *
   * @param index the new relation's number in this add
   * @param fact the new fact
   * @param validAt when the new fact began to hold, or null
   * @param candidates still-valid relations sharing an endpoint with it
   */
  record Question(int index, String fact, Instant validAt, List<Candidate> candidates) {
    public Question {
      candidates = List.copyOf(candidates);
    }
  }

  /**
   * An existing relation shown to the judge.
   *
   * @param id its id
   * @param fact its fact sentence
   * @param validAt since when it holds, or null
   */
  record Candidate(String id, String fact, Instant validAt) {}

  /**
   * The judgement on one new relation.
   *
   * @param index the question's index
   * @param contradicted ids of candidates the new relation makes obsolete
   * @param duplicates ids of candidates that state the same fact
   */
  record Verdict(int index, List<String> contradicted, List<String> duplicates) {
    public Verdict {
      contradicted = List.copyOf(contradicted);
      duplicates = List.copyOf(duplicates);
    }
  }
}
