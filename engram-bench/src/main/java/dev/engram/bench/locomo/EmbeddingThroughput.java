package dev.engram.bench.locomo;

import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import dev.engram.spi.VectorMath;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Document embedding alone, as the engine asks for it: the LoCoMo turns of a file embedded by the
 * default in-process embedder in calls of N texts (an add of N turns, an import batch), several
 * rounds. Each round prints texts per second of wall time, process CPU milliseconds per text (every
 * thread), and the cosine of each text's vector to the vector of the same text embedded alone (mean
 * and minimum: what embedding texts together changes). {@code java -cp engram.jar
 * dev.engram.bench.locomo.EmbeddingThroughput FILE [TEXTS_PER_CALL] [ROUNDS]} (defaults 20 and 4).
 */
public final class EmbeddingThroughput {
  private EmbeddingThroughput() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: EmbeddingThroughput FILE [TEXTS_PER_CALL] [ROUNDS]");
      System.exit(2);
    }
    List<String> texts = new ArrayList<>();
    for (Conversation c : LocomoReader.read(Path.of(args[0]))) {
      for (Session s : c.sessions()) {
        for (Turn t : s.turns()) {
          texts.add(t.text());
        }
      }
    }
    int perCall = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    Embedder embedder = OnnxEmbedders.defaultEmbedder();
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    List<float[]> alone = new ArrayList<>(texts.size());
    for (String t : texts) {
      alone.add(embedder.embedDocuments(List.of(t)).get(0));
    }
    for (int round = 1; round <= rounds; round++) {
      long cpu = os.getProcessCpuTime();
      long start = System.nanoTime();
      List<float[]> vectors = new ArrayList<>(texts.size());
      for (int from = 0; from < texts.size(); from += perCall) {
        vectors.addAll(
            embedder.embedDocuments(texts.subList(from, Math.min(texts.size(), from + perCall))));
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpuMs = (os.getProcessCpuTime() - cpu) / 1e6;
      double sum = 0;
      double min = 1;
      for (int i = 0; i < texts.size(); i++) {
        double cosine = VectorMath.cosine(alone.get(i), vectors.get(i));
        sum += cosine;
        min = Math.min(min, cosine);
      }
      System.out.printf(
          Locale.ROOT,
          "round %d: %d texts, %d per call: %.0f texts/s, %.2f CPU ms per text, cosine"
              + " to the text embedded alone mean %.5f min %.5f%n",
          round,
          texts.size(),
          perCall,
          texts.size() / seconds,
          cpuMs / texts.size(),
          sum / texts.size(),
          min);
    }
  }
}
