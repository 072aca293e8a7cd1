package dev.engram.cli;

import dev.engram.ValidationException;
import dev.engram.bench.calibration.RelevanceFit;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram bench calibrate}: fits an embedder's relevance calibration ({@link RelevanceFit})
 * on benchmark files in LoCoMo's format and writes it as the properties resource the embedder ships
 * (for the default model, {@code
 * engram-onnx/src/main/resources/dev/engram/onnx/bge-small-en-v1.5-q.relevance.properties}).
 */
@Command(
    name = "calibrate",
    description =
        "Fit an embedder's relevance calibration (cosine to probability of relevance) on"
            + " labelled pairs of LoCoMo-format files, and write its properties.")
final class CalibrateBenchCommand extends BaseCommand {
  @Option(
      names = "--data",
      required = true,
      paramLabel = "FILE",
      description = "A file in LoCoMo's format; repeat for each sample (each weighs the same).")
  List<Path> data;

  @Option(
      names = "--model",
      paramLabel = "KIND",
      defaultValue = "onnx",
      converter = BenchEmbedder.Converter.class,
      description =
          "onnx: an in-process model, the default one unless --embedder names another"
              + " (default); hash: the benchmark embedder.")
  BenchEmbedder embedder;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "Where to write the calibration's properties.")
  Path out;

  /**
   * The embedder to fit: with {@code --model onnx}, the in-process model {@code --embedder} names,
   * else the default one; {@code --model hash} refuses {@code --embedder}, which names a model.
   */
  private Embedder model() {
    Optional<String> named = common.embedder();
    if (named.isEmpty()) {
      return embedder.create();
    }
    if (embedder != BenchEmbedder.ONNX) {
      throw new ValidationException(
          "embedder",
          "--embedder names an in-process model, which --model "
              + embedder.name().toLowerCase(Locale.ROOT)
              + " does not use");
    }
    return OnnxEmbedders.byName(named.get());
  }

  @Override
  protected int run() {
    int[] embedded = {0};
    Embedder model = model();
    RelevanceFit.Fit fit =
        RelevanceFit.fit(
            data,
            model,
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir")),
            n -> {
              embedded[0] += n;
            });
    String command =
        "engram bench calibrate --model "
            + embedder.name().toLowerCase(Locale.ROOT)
            + common.embedder().map(name -> " --embedder " + name).orElse("")
            + data.stream().map(p -> " --data " + p.getFileName()).reduce("", String::concat)
            + " --out "
            + out.getFileName();
    RelevanceFit.write(out, fit, command);
    out()
        .println(
            String.format(
                Locale.ROOT,
                "slope %.4f, intercept %.4f (%d evidence pairs, %d others; %d texts embedded)",
                fit.map().slope(),
                fit.map().intercept(),
                fit.positives(),
                fit.negatives(),
                embedded[0]));
    for (Map.Entry<String, Double> e : fit.diagnostics().entrySet()) {
      out().println(String.format(Locale.ROOT, "%s %.4f", e.getKey(), e.getValue()));
    }
    out().println("wrote " + out);
    return EXIT_OK;
  }
}
