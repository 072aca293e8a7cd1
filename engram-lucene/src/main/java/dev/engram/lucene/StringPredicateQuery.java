package dev.engram.lucene;

import dev.engram.filter.Op;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;

/**
 * Matches documents where any string value of a field (read from its binary doc values, see {@link
 * StringCodec#encodeList}) satisfies a comparison, evaluated with Java's own {@link String} methods
 * exactly as {@link dev.engram.filter.FilterEvaluator} does. It serves {@code contains}/{@code
 * icontains} (a substring test no term index answers exactly) and values too long to be terms.
 *
 * <p>The iterator is two-phase: the doc values only approximate, and a value is decoded and tested
 * only for documents that the other required clauses (tenant, scope) already accept, so its cost
 * follows the size of the scope, not of the index.
 */
final class StringPredicateQuery extends Query {
  private static final float MATCH_COST = 50f;

  private final String field;
  private final Op op;
  private final String operand;
  private final Set<String> set;

  /**
   * @param field the doc-values field
   * @param op any operator but {@code ne}/{@code nin} (negations are built around this query)
   * @param operand a String, or for {@code in} a list of Strings
   */
  StringPredicateQuery(String field, Op op, Object operand) {
    this.field = Objects.requireNonNull(field, "field");
    this.op = Objects.requireNonNull(op, "op");
    if (op == Op.NE || op == Op.NIN) {
      throw new IllegalArgumentException("op: negations are not predicates, got " + op);
    }
    if (op == Op.IN) {
      this.set = new HashSet<>();
      for (Object o : (List<?>) operand) {
        set.add((String) o);
      }
      this.operand = null;
    } else {
      this.set = null;
      String s = (String) Objects.requireNonNull(operand, "operand");
      this.operand = op == Op.ICONTAINS ? s.toLowerCase(Locale.ROOT) : s;
    }
  }

  boolean test(String actual) {
    return switch (op) {
      case EQ -> actual.equals(operand);
      case IN -> set.contains(actual);
      case CONTAINS -> actual.contains(operand);
      case ICONTAINS -> actual.toLowerCase(Locale.ROOT).contains(operand);
      case GT -> actual.compareTo(operand) > 0;
      case GTE -> actual.compareTo(operand) >= 0;
      case LT -> actual.compareTo(operand) < 0;
      case LTE -> actual.compareTo(operand) <= 0;
      default -> throw new IllegalStateException("unexpected operator " + op);
    };
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
    return new ConstantScoreWeight(this, boost) {
      @Override
      public Scorer scorer(LeafReaderContext context) throws IOException {
        BinaryDocValues values = context.reader().getBinaryDocValues(field);
        if (values == null) {
          return null;
        }
        TwoPhaseIterator twoPhase =
            new TwoPhaseIterator(values) {
              @Override
              public boolean matches() throws IOException {
                for (String v : StringCodec.decodeList(values.binaryValue())) {
                  if (test(v)) {
                    return true;
                  }
                }
                return false;
              }

              @Override
              public float matchCost() {
                return MATCH_COST;
              }
            };
        return new ConstantScoreScorer(this, score(), scoreMode, twoPhase);
      }

      @Override
      public boolean isCacheable(LeafReaderContext ctx) {
        return DocValues.isCacheable(ctx, field);
      }
    };
  }

  @Override
  public void visit(QueryVisitor visitor) {
    if (visitor.acceptField(field)) {
      visitor.visitLeaf(this);
    }
  }

  @Override
  public String toString(String defaultField) {
    return field + ":" + op.wireName() + "(" + (op == Op.IN ? set : operand) + ")";
  }

  @Override
  public boolean equals(Object o) {
    return sameClassAs(o)
        && field.equals(((StringPredicateQuery) o).field)
        && op == ((StringPredicateQuery) o).op
        && Objects.equals(operand, ((StringPredicateQuery) o).operand)
        && Objects.equals(set, ((StringPredicateQuery) o).set);
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), field, op, operand, set);
  }
}
