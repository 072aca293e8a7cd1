package dev.engram.lucene;

import static dev.engram.lucene.IndexFields.BOOLEAN;
import static dev.engram.lucene.IndexFields.EXISTS;
import static dev.engram.lucene.IndexFields.NUMBER;
import static dev.engram.lucene.IndexFields.OVERFLOW;
import static dev.engram.lucene.IndexFields.STRING;
import static dev.engram.lucene.IndexFields.TIME;
import static dev.engram.lucene.IndexFields.VALUES;
import static dev.engram.lucene.IndexFields.YES;

import dev.engram.filter.BuiltInField;
import dev.engram.filter.Filter;
import dev.engram.filter.Op;
import dev.engram.spi.IndexQuery;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.BinaryPoint;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Translates an {@link IndexQuery} into the Lucene query that restricts a search, agreeing exactly
 * with {@link dev.engram.filter.FilterEvaluator}: each comparison only looks at the field of its
 * value's kind (strings with strings, numbers with numbers, booleans with booleans, times with
 * times), {@code ne}/{@code nin} are "match all but" the positive query (so a missing field
 * passes), and {@code NOT} likewise.
 */
final class FilterQueries {
  /**
   * Longest string bound for a term range: Lucene turns the bounds into an automaton, which fails
   * for bounds of about a thousand bytes; longer bounds are tested value by value instead.
   */
  static final int MAX_RANGE_BOUND_BYTES = 512;

  private FilterQueries() {}

  /** Tenant AND scope AND filter AND (unless asked otherwise) not expired on {@code today}. */
  static Query restriction(IndexQuery q) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    b.add(new TermQuery(new Term(IndexFields.TENANT, q.tenant())), Occur.FILTER);
    q.scope()
        .userId()
        .ifPresent(id -> b.add(eq(IndexFields.logical(BuiltInField.USER_ID), id), Occur.FILTER));
    q.scope()
        .agentId()
        .ifPresent(id -> b.add(eq(IndexFields.logical(BuiltInField.AGENT_ID), id), Occur.FILTER));
    q.scope()
        .runId()
        .ifPresent(id -> b.add(eq(IndexFields.logical(BuiltInField.RUN_ID), id), Occur.FILTER));
    if (!(q.filter() instanceof Filter.All)) {
      b.add(translate(q.filter()), Occur.FILTER);
    }
    if (!q.includeExpired()) {
      byte[] today = TimePoints.encode(q.today().atStartOfDay().toInstant(ZoneOffset.UTC));
      String name = TIME + IndexFields.logical(BuiltInField.EXPIRATION_DATE);
      b.add(BinaryPoint.newRangeQuery(name, TimePoints.MIN, today), Occur.MUST_NOT);
    }
    return b.build();
  }

  /** The query matching exactly the memories {@code filter} matches. */
  static Query translate(Filter filter) {
    if (filter instanceof Filter.All) {
      return new MatchAllDocsQuery();
    }
    if (filter instanceof Filter.And and) {
      return combine(and.parts(), Occur.FILTER);
    }
    if (filter instanceof Filter.Or or) {
      return combine(or.parts(), Occur.SHOULD);
    }
    if (filter instanceof Filter.Not not) {
      return not(translate(not.inner()));
    }
    if (filter instanceof Filter.Exists ex) {
      return new TermQuery(new Term(EXISTS + IndexFields.logical(ex.field()), YES));
    }
    Filter.Comparison c = (Filter.Comparison) filter;
    String name = IndexFields.logical(c.field());
    return switch (c.op()) {
      case NE -> not(eq(name, c.value()));
      case NIN -> not(in(name, (List<?>) c.value()));
      case EQ -> eq(name, c.value());
      case IN -> in(name, (List<?>) c.value());
      case GT, GTE, LT, LTE -> range(name, c.op(), c.value());
      case CONTAINS, ICONTAINS -> new StringPredicateQuery(VALUES + name, c.op(), c.value());
    };
  }

  private static Query combine(List<Filter> parts, Occur occur) {
    if (parts.size() == 1) {
      return translate(parts.get(0));
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (Filter p : parts) {
      b.add(translate(p), occur);
    }
    if (occur == Occur.SHOULD) {
      b.setMinimumNumberShouldMatch(1);
    }
    return b.build();
  }

  private static Query not(Query inner) {
    return new BooleanQuery.Builder()
        .add(new MatchAllDocsQuery(), Occur.FILTER)
        .add(inner, Occur.MUST_NOT)
        .build();
  }

  private static Query eq(String name, Object value) {
    if (value instanceof String s) {
      return StringCodec.fitsInTerm(s)
          ? new TermQuery(new Term(STRING + name, StringCodec.term(s)))
          : overflow(name, Op.EQ, s);
    }
    if (value instanceof Double d) {
      return DoublePoint.newExactQuery(NUMBER + name, d);
    }
    if (value instanceof Boolean b) {
      return new TermQuery(new Term(BOOLEAN + name, b.toString()));
    }
    return BinaryPoint.newExactQuery(TIME + name, TimePoints.encode((Instant) value));
  }

  private static Query in(String name, List<?> values) {
    List<BytesRef> terms = new ArrayList<>();
    List<String> longStrings = new ArrayList<>();
    List<Double> numbers = new ArrayList<>();
    List<BytesRef> booleans = new ArrayList<>();
    List<byte[]> times = new ArrayList<>();
    for (Object v : values) {
      if (v instanceof String s) {
        if (StringCodec.fitsInTerm(s)) {
          terms.add(StringCodec.term(s));
        } else {
          longStrings.add(s);
        }
      } else if (v instanceof Double d) {
        numbers.add(d);
      } else if (v instanceof Boolean b) {
        booleans.add(new BytesRef(b.toString()));
      } else {
        times.add(TimePoints.encode((Instant) v));
      }
    }
    List<Query> parts = new ArrayList<>();
    if (!terms.isEmpty()) {
      parts.add(new TermInSetQuery(STRING + name, terms));
    }
    if (!longStrings.isEmpty()) {
      parts.add(overflow(name, Op.IN, longStrings));
    }
    if (!numbers.isEmpty()) {
      parts.add(DoublePoint.newSetQuery(NUMBER + name, numbers));
    }
    if (!booleans.isEmpty()) {
      parts.add(new TermInSetQuery(BOOLEAN + name, booleans));
    }
    if (!times.isEmpty()) {
      parts.add(BinaryPoint.newSetQuery(TIME + name, times.toArray(new byte[0][])));
    }
    return any(parts);
  }

  private static Query range(String name, Op op, Object value) {
    if (value instanceof String s) {
      BytesRef t = StringCodec.term(s);
      if (t.length > MAX_RANGE_BOUND_BYTES) {
        return new StringPredicateQuery(VALUES + name, op, s);
      }
      boolean lower = op == Op.GT || op == Op.GTE;
      Query terms =
          new TermRangeQuery(
              STRING + name, lower ? t : null, lower ? null : t, op == Op.GTE, op == Op.LTE);
      return any(List.of(terms, overflow(name, op, s)));
    }
    if (value instanceof Double d) {
      String field = NUMBER + name;
      return switch (op) {
        case GT ->
            DoublePoint.newRangeQuery(field, DoublePoint.nextUp(d), Double.POSITIVE_INFINITY);
        case GTE -> DoublePoint.newRangeQuery(field, d, Double.POSITIVE_INFINITY);
        case LT ->
            DoublePoint.newRangeQuery(field, Double.NEGATIVE_INFINITY, DoublePoint.nextDown(d));
        default -> DoublePoint.newRangeQuery(field, Double.NEGATIVE_INFINITY, d);
      };
    }
    Instant t = (Instant) value;
    byte[] lower =
        switch (op) {
          case GT -> TimePoints.after(t);
          case GTE -> TimePoints.encode(t);
          default -> TimePoints.MIN;
        };
    byte[] upper =
        switch (op) {
          case LT -> TimePoints.before(t);
          case LTE -> TimePoints.encode(t);
          default -> TimePoints.MAX;
        };
    return lower == null || upper == null
        ? new MatchNoDocsQuery("empty time range")
        : BinaryPoint.newRangeQuery(TIME + name, lower, upper);
  }

  /** Values too long to be terms: only documents marked as holding one are tested. */
  private static Query overflow(String name, Op op, Object operand) {
    return new BooleanQuery.Builder()
        .add(new TermQuery(new Term(OVERFLOW + name, YES)), Occur.FILTER)
        .add(new StringPredicateQuery(VALUES + name, op, operand), Occur.FILTER)
        .build();
  }

  private static Query any(List<Query> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    parts.forEach(p -> b.add(p, Occur.SHOULD));
    return b.setMinimumNumberShouldMatch(1).build();
  }
}
