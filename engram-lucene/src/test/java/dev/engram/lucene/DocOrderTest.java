package dev.engram.lucene;

import static dev.engram.lucene.Docs.hits;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/** {@link DocOrder} over a real index of three segments. */
class DocOrderTest {
  @Test
  void positionsSortByDocumentAndKeepTheGivenOrderOfOneDocument() {
    assertThat(DocOrder.positions(hits(7, 2, 9, 2, 0))).containsExactly(4, 1, 3, 0, 2);
    assertThat(DocOrder.positions(hits())).isEmpty();
  }

  @Test
  void aWalkOpensEachLeafOnceAndVisitsItsDocumentsInOrder() throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter writer =
          new IndexWriter(
              dir,
              new IndexWriterConfig(new WhitespaceAnalyzer())
                  .setMergePolicy(NoMergePolicy.INSTANCE))) {
        for (int segment = 0; segment < 3; segment++) {
          for (int i = 0; i < 5; i++) {
            writer.addDocument(new Document());
          }
          writer.commit();
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        assertThat(reader.leaves()).hasSize(3);
        List<Integer> opened = new ArrayList<>();
        List<String> visited = new ArrayList<>();
        DocOrder.walk(
            reader,
            hits(12, 3, 7, 0, 13, 7),
            leaf -> {
              opened.add(leaf.ord);
              return "leaf" + leaf.ord;
            },
            (leaf, position, doc) -> visited.add(leaf + ":" + doc + "@" + position));
        assertThat(opened).containsExactly(0, 1, 2); // leaf 1 once, though two hits fall in it
        assertThat(visited)
            .containsExactly(
                "leaf0:0@3", "leaf0:3@1", "leaf1:2@2", "leaf1:2@5", "leaf2:2@0", "leaf2:3@4");
      }
    }
  }
}
