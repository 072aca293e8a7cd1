package dev.engram.lucene;

import static dev.engram.lucene.IndexFields.BOOLEAN;
import static dev.engram.lucene.IndexFields.EXISTS;
import static dev.engram.lucene.IndexFields.MILLIS;
import static dev.engram.lucene.IndexFields.NUMBER;
import static dev.engram.lucene.IndexFields.OVERFLOW;
import static dev.engram.lucene.IndexFields.STRING;
import static dev.engram.lucene.IndexFields.TIME;
import static dev.engram.lucene.IndexFields.VALUES;
import static dev.engram.lucene.IndexFields.YES;

import dev.engram.MemoryItem;
import dev.engram.filter.BuiltInField;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.BinaryPoint;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;

/**
 * Turns a {@link StoredMemory} into a Lucene document (field layout in {@link IndexFields}).
 *
 * <p>Metadata: a string, number or boolean value is indexed under its key in the field of its kind;
 * a list indexes each of its scalar elements the same way (so "any element matches" comes for
 * free); lists nested in lists and objects are not indexed, exactly as {@link
 * dev.engram.filter.FilterEvaluator} never matches them. A key whose value is an object (or a list)
 * is still present for {@code exists} and passes {@code ne}/{@code nin}. Nested objects are not
 * flattened: {@code metadata.a.b} names the top-level key {@code "a.b"}, as in the evaluator.
 */
final class MemoryDocuments {
  private MemoryDocuments() {}

  static Document build(StoredMemory m) {
    MemoryItem item = m.item();
    Document doc = new Document();
    doc.add(new StringField(IndexFields.KEY, IndexFields.key(m.tenant(), item.id()), Store.NO));
    doc.add(new StringField(IndexFields.TENANT, m.tenant(), Store.NO));
    doc.add(new BinaryDocValuesField(IndexFields.ID, new BytesRef(item.id())));
    doc.add(new TextField(IndexFields.TEXT, QueryTerms.wellFormed(item.text()), Store.NO));
    if (!m.context().isEmpty()) {
      doc.add(new TextField(IndexFields.CONTEXT, QueryTerms.wellFormed(m.context()), Store.NO));
    }
    doc.add(
        new KnnFloatVectorField(
            IndexFields.VECTOR, m.embeddingView(), VectorSimilarityFunction.DOT_PRODUCT));
    if (m.contextEmbeddingView().length > 0) {
      doc.add(
          new KnnFloatVectorField(
              IndexFields.CONTEXT_VECTOR,
              m.contextEmbeddingView(),
              VectorSimilarityFunction.DOT_PRODUCT));
    }

    string(doc, BuiltInField.USER_ID, item.userId());
    string(doc, BuiltInField.AGENT_ID, item.agentId());
    string(doc, BuiltInField.RUN_ID, item.runId());
    string(doc, BuiltInField.ACTOR_ID, item.actorId());
    string(doc, BuiltInField.ROLE, item.role() == null ? null : item.role().wireName());
    string(doc, BuiltInField.HASH, item.hash());
    string(doc, BuiltInField.MEMORY, item.text());
    if (!item.sourceIds().isEmpty()) {
      strings(doc, IndexFields.logical(BuiltInField.SOURCE_ID), item.sourceIds());
    }
    time(doc, BuiltInField.CREATED_AT, item.createdAt());
    time(doc, BuiltInField.UPDATED_AT, item.updatedAt());
    time(doc, BuiltInField.EVENT_TIME, item.eventTime());
    time(
        doc,
        BuiltInField.EXPIRATION_DATE,
        item.expirationDate() == null
            ? null
            : item.expirationDate().atStartOfDay().toInstant(ZoneOffset.UTC));

    for (Map.Entry<String, Object> e : item.metadata().entrySet()) {
      metadata(doc, IndexFields.metadata(e.getKey()), e.getValue());
    }
    return doc;
  }

  private static void string(Document doc, BuiltInField f, String value) {
    if (value != null) {
      strings(doc, IndexFields.logical(f), List.of(value));
    }
  }

  private static void time(Document doc, BuiltInField f, Instant t) {
    if (t == null) {
      return;
    }
    String name = IndexFields.logical(f);
    doc.add(new BinaryPoint(TIME + name, TimePoints.encode(t)));
    doc.add(new NumericDocValuesField(MILLIS + name, t.toEpochMilli()));
    presence(doc, name);
  }

  private static void metadata(Document doc, String name, Object value) {
    if (value == null) {
      return;
    }
    presence(doc, name);
    List<Object> scalars = value instanceof List<?> list ? new ArrayList<>(list) : List.of(value);
    List<String> strings = new ArrayList<>();
    for (Object v : scalars) {
      if (v instanceof String s) {
        strings.add(s);
      } else if (v instanceof Number n) {
        doc.add(new DoublePoint(NUMBER + name, n.doubleValue()));
      } else if (v instanceof Boolean b) {
        doc.add(new StringField(BOOLEAN + name, b.toString(), Store.NO));
      }
    }
    if (!strings.isEmpty()) {
      stringValues(doc, name, strings);
    }
  }

  /** Strings of a built-in field, with presence. */
  private static void strings(Document doc, String name, List<String> values) {
    presence(doc, name);
    stringValues(doc, name, values);
  }

  private static void stringValues(Document doc, String name, List<String> values) {
    boolean overflow = false;
    for (String v : values) {
      if (StringCodec.fitsInTerm(v)) {
        doc.add(new StringField(STRING + name, StringCodec.term(v), Store.NO));
      } else {
        overflow = true;
      }
    }
    if (overflow) {
      doc.add(new StringField(OVERFLOW + name, YES, Store.NO));
    }
    doc.add(new BinaryDocValuesField(VALUES + name, StringCodec.encodeList(values)));
  }

  private static void presence(Document doc, String name) {
    doc.add(new StringField(EXISTS + name, YES, Store.NO));
  }
}
